// What callers do to threads: create, send, rename, interrupt, stop, stop a subagent, change the mode,
// the rules or the deadlines. In a fleet a new thread is placed on a host (placement.ts), and a command
// for a thread another live host runs is recorded here and run there (remote-commands.ts); what other
// hosts ask of this one runs through runRequested(). Callers check nothing: each command does.
import { ConflictError, NotFoundError, ValidationError } from '../../protocol/errors.js';
import type { RunRecord, ThreadMode, ThreadRecord } from '../../store/records.js';
import { validateMode, validateRules } from '../../policy/policy.js';
import type { CodexThread } from '../agents/codex-thread.js';
import type { CodexThreads } from '../agents/codex-threads.js';
import type { Decider } from '../approvals/decider.js';
import { validateDeadlines } from '../approvals/deadlines.js';
import { planStart } from '../approvals/person-tools.js';
import type { SupervisorCore } from '../core.js';
import type { FleetMembership } from '../fleet/fleet.js';
import { placeThread } from '../fleet/placement.js';
import type { CommandRequest, ForwardedCommand, RemoteCommands } from '../fleet/remote-commands.js';
import type { NewThread } from '../types.js';
import { validateId, validateNewThread, validateText, validateTitle } from '../validate.js';
import type { ThreadRuntime } from './thread-runtime.js';
import { titleFromPrompt } from './thread-title.js';
import type { Threads } from './threads.js';

/** Rules one call may add. */
const MAX_GRANTED = 64;

export class ThreadCommands {
  readonly #core: SupervisorCore;
  readonly #threads: Threads;
  readonly #decider: Decider;
  readonly #fleet: FleetMembership | undefined;
  readonly #remote: RemoteCommands | undefined;
  readonly #codex: CodexThreads;

  constructor(
    core: SupervisorCore,
    threads: Threads,
    decider: Decider,
    fleet: FleetMembership | undefined,
    remote: RemoteCommands | undefined,
    codex: CodexThreads,
  ) {
    this.#codex = codex;
    this.#core = core;
    this.#threads = threads;
    this.#decider = decider;
    this.#fleet = fleet;
    this.#remote = remote;
  }

  createThread(input: NewThread): ThreadRecord {
    this.#core.checkOpen();
    const { agent, cwd, mode, model, rules } = validateNewThread(input);
    if (agent === 'codex' && this.#fleet !== undefined)
      throw new ValidationError('Codex threads run on a host of their own, not in a fleet (yet)', 'agent');
    const planned = planStart(input.plan);
    const title = input.title === undefined ? null : validateTitle(input.title);
    const deadlines = validateDeadlines(input.deadlines);
    const placed = this.#place(cwd, input.host);
    const id = this.#core.newId();
    this.#core.commit(id, [
      {
        type: 'thread.created',
        data: {
          ...planned,
          cwd,
          mode,
          model,
          rules,
          deadlines,
          ...(agent === 'codex' ? { agent } : {}),
          ...(placed === undefined ? {} : { host: placed }),
        },
      },
      ...(title === null
        ? []
        : [{ type: 'thread.titled' as const, data: { title, source: 'user' as const } }]),
    ]);
    return this.#threads.thread(id);
  }

  send(threadId: string, text: string): Promise<RunRecord> | RunRecord {
    this.#core.checkOpen();
    validateText(text);
    this.#checkDriven(threadId, 'send to');
    // A thread another live host runs: that host sends it, as the run named by the request's id.
    const title = this.#threads.thread(threadId).title === null ? titleFromPrompt(text) : null;
    const forwarded = this.#remote?.forward(
      threadId,
      'send',
      { text },
      title === null ? [] : [{ type: 'thread.titled', data: { title, source: 'prompt' } }],
    );
    if (forwarded !== undefined) return forwardedRun(forwarded.event, text);
    const codex = this.#codexOf(threadId);
    if (codex !== undefined) {
      if (title !== null)
        this.#core.commit(threadId, [{ type: 'thread.titled', data: { title, source: 'prompt' } }]);
      return codex.send(text);
    }
    // A thread whose host went away is taken over here, its CLI resumed from the mirrored transcript.
    this.#core.publish(this.#fleet?.adoptIfOrphaned(threadId, 'send to') ?? []);
    const runtime = this.#threads.runtime(threadId);
    // A thread nobody named is called after its first prompt.
    if (title !== null)
      this.#core.commit(threadId, [{ type: 'thread.titled', data: { title, source: 'prompt' } }]);
    return runtime.send(text);
  }

  /** The thread's Codex runtime when its agent is Codex. */
  #codexOf(threadId: string): CodexThread | undefined {
    return this.#threads.thread(threadId).agent === 'codex' ? this.#codex.runtime(threadId) : undefined;
  }

  /** An external session runs where its user started it: Warden answers it, never drives it. */
  #checkDriven(threadId: string, what: string): void {
    if (this.#threads.thread(threadId).kind === 'external')
      throw new ConflictError(
        `Thread ${threadId} is an external session (started outside Warden): it cannot ${what} it from here`,
      );
  }

  rename(threadId: string, title: string): ThreadRecord {
    this.#core.checkOpen();
    const safe = validateTitle(title);
    const thread = this.#threads.thread(threadId);
    if (thread.title !== safe)
      this.#core.commit(threadId, [{ type: 'thread.titled', data: { title: safe, source: 'user' } }]);
    return this.#threads.thread(threadId);
  }

  interrupt(threadId: string): Promise<void> | undefined {
    this.#core.checkOpen();
    this.#checkDriven(threadId, 'interrupt');
    const codex = this.#codexOf(threadId);
    if (codex !== undefined) return codex.interrupt();
    if (this.#forward(threadId, 'interrupt', {}) !== undefined) return;
    this.#fleet?.checkRunsHere(threadId, 'interrupt');
    return this.#threads.runtime(threadId).interrupt();
  }

  stop(threadId: string): Promise<void> | undefined {
    this.#core.checkOpen();
    this.#checkDriven(threadId, 'stop');
    const codex = this.#codexOf(threadId);
    if (codex !== undefined) return codex.stop('thread_stopped');
    if (this.#forward(threadId, 'stop', {}) !== undefined) return;
    this.#fleet?.checkRunsHere(threadId, 'stop');
    return this.#threads.runtime(threadId).stop('thread_stopped');
  }

  stopSubagent(subagentId: string): Promise<void> | undefined {
    this.#core.checkOpen();
    validateId(subagentId, 'subagentId');
    const subagent = this.#core.store.getSubagent(subagentId);
    if (subagent === undefined)
      throw new NotFoundError('subagent', subagentId, `Unknown subagent ${JSON.stringify(subagentId)}`);
    if (this.#forward(subagent.threadId, 'stop_subagent', { subagentId }) !== undefined) return;
    this.#fleet?.checkRunsHere(subagent.threadId, 'stop its subagents on');
    return this.#threads.runtime(subagent.threadId).stopSubagent(subagentId);
  }

  setMode(threadId: string, mode: ThreadMode): ThreadRecord {
    this.#core.checkOpen();
    // Another live host runs the thread: it changes the mode (and settles what its policy now decides).
    if (this.#forward(threadId, 'set_mode', { mode: validateMode(mode) }) !== undefined)
      return this.#threads.thread(threadId);
    return this.#decider.setMode(threadId, mode);
  }

  /**
   * Adds allow rules to the thread, as an always-allow of the thread's scope does, from no approval (the
   * thread's rules panel, a suggestion saved): kept on the record until removed.
   */
  grantRules(threadId: string, rules: readonly string[]): ThreadRecord {
    this.#core.checkOpen();
    if (!Array.isArray(rules) || rules.length === 0 || rules.length > MAX_GRANTED)
      throw new ValidationError(`rules must be an array of 1 to ${MAX_GRANTED} rules`, 'rules');
    const { allow } = validateRules({ allow: rules });
    this.#threads.thread(threadId);
    this.#core.commit(threadId, [
      {
        type: 'thread.rules_granted',
        data: { approvalId: null, scope: 'thread', rules: allow, sessionId: null },
      },
    ]);
    return this.#threads.thread(threadId);
  }

  revokeRule(threadId: string, rule: string, scope: 'thread' | 'session'): ThreadRecord {
    this.#core.checkOpen();
    if (typeof rule !== 'string' || rule === '')
      throw new ValidationError('rule must be a non-empty string', 'rule');
    if (scope !== 'thread' && scope !== 'session')
      throw new ValidationError(
        'scope must be thread or session (a project rule lives in its settings file)',
        'scope',
      );
    this.#threads.thread(threadId);
    this.#core.commit(threadId, [{ type: 'thread.rule_revoked', data: { rule, scope } }]);
    return this.#threads.thread(threadId);
  }

  setDeadlines(threadId: string, deadlines: NewThread['deadlines']): ThreadRecord {
    this.#core.checkOpen();
    const checked = validateDeadlines(deadlines);
    this.#threads.thread(threadId);
    this.#core.commit(threadId, [{ type: 'thread.deadlines_set', data: { deadlines: checked } }]);
    return this.#threads.thread(threadId);
  }

  /** The other live host of the fleet that runs the thread's commands; undefined when this host does. */
  commandHost(threadId: string): string | undefined {
    this.#core.checkOpen();
    // Reading the thread folds in what other hosts committed (a thread just placed here, say).
    this.#threads.thread(threadId);
    const owner = this.#fleet?.ownerElsewhere(threadId);
    if (owner === undefined) return undefined;
    return this.#fleet?.listHosts().find((host) => host.name === owner)?.live === true ? owner : undefined;
  }

  /** Runs on this host, its owner, a command another host recorded for one of its threads (remote-commands.ts). */
  async runRequested(request: CommandRequest): Promise<void> {
    if (this.#core.closed) return;
    const { threadId } = request;
    const { requestId, command, args } = request.data;
    if (command === 'send') {
      // The run of that id is the mark that it was sent.
      if (this.#core.store.getRun(requestId) !== undefined) return;
      try {
        await this.#threads.runtime(threadId).send(args.text ?? '', undefined, requestId);
      } catch (error) {
        this.#core.record(threadId, [
          { type: 'thread.command_done', data: { requestId, error: toMessage(error) } },
        ]);
        throw error;
      }
      return;
    }
    // Marked done before it runs: a host that stops halfway does not run it again.
    this.#core.commit(threadId, [{ type: 'thread.command_done', data: { requestId, error: null } }]);
    const runtime = (): ThreadRuntime => this.#threads.runtime(threadId);
    if (command === 'interrupt') await runtime().interrupt();
    else if (command === 'stop') await runtime().stop('thread_stopped');
    else if (command === 'stop_subagent') await runtime().stopSubagent(args.subagentId ?? '');
    else if (command === 'set_mode' && args.mode !== undefined) this.#decider.setMode(threadId, args.mode);
  }

  #forward(
    threadId: string,
    command: CommandRequest['data']['command'],
    args: CommandRequest['data']['args'],
  ): ForwardedCommand | undefined {
    validateId(threadId, 'threadId');
    this.#threads.thread(threadId);
    const forwarded = this.#remote?.forward(threadId, command, args);
    return forwarded === undefined ? undefined : { requestId: forwarded.requestId, host: forwarded.host };
  }

  /** Where a new thread runs: this host (undefined) or the fleet host placement.ts chooses. */
  #place(cwd: string, named: unknown): string | undefined {
    if (named !== undefined && (typeof named !== 'string' || named === ''))
      throw new ValidationError('host must be a host name', 'host');
    if (this.#fleet === undefined) {
      if (named !== undefined)
        throw new ValidationError('host names a host of a fleet; this one is alone', 'host');
      return undefined;
    }
    // The hosts' load is read, then the chosen slot reserved compare-and-set: another host placing at the
    // same moment may take it first, and then the choice is made again on the loads as they are now.
    for (let attempt = 0; ; attempt += 1) {
      const hosts = this.#fleet.listHosts();
      const liveHere = this.#threads.liveClis();
      const me = this.#fleet.name;
      const chosen = placeThread(hosts, { cwd, host: named, me, liveHere });
      if (this.#fleet.reserve(chosen, chosen === me ? liveHere : null))
        return chosen === me ? undefined : chosen;
      if (attempt >= hosts.length)
        throw new ConflictError('Cannot place the thread: other hosts kept taking the room it was offered');
    }
  }
}

/** What a send answers when another host runs the thread: the run it will start, queued, named by the request. */
function forwardedRun(request: CommandRequest, text: string): RunRecord {
  return {
    id: request.data.requestId,
    threadId: request.threadId,
    status: 'queued',
    trigger: 'human',
    origin: null,
    prompt: text,
    userMessageId: null,
    generation: 0,
    result: null,
    reason: null,
    createdAt: request.at,
    startedAt: null,
    endedAt: null,
    releasedAt: null,
  };
}

function toMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
