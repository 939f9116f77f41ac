// The Supervisor: threads → runs → subagents → approvals over the CLI, with policies, an append-only
// event log and projections in SQLite. The public surface is here; the work is done by ThreadRuntime
// (one live CLI process per thread), LiveSession (what its frames mean) and the permission gate.
import { ConflictError, NotFoundError, StoreError, ValidationError } from '../protocol/errors.js';
import { query as sdkQuery } from '../session/query.js';
import { recoverAfterCrash, type RecoverySummary } from '../store/closeout.js';
import { verifyAuditRows, type AuditRow, type VerifyResult } from '../store/audit-chain.js';
import { auditRows, type AuditQuery } from '../store/audit-log.js';
import { stopLeftover, stopLeftoverProcesses } from './leftover-processes.js';
import {
  selectApprovals,
  validateBatchIds,
  validateSelection,
  type BatchResult,
  type BatchSelection,
} from './batch.js';
import { DeadlineClock } from './deadline-clock.js';
import { deadlineMessage, validateDeadlines } from './deadlines.js';
import { grantUpdates, validateGrant } from './grants.js';
import { validateIdleParkMs } from './idle-park.js';
import { reattachableProcesses } from './reattach.js';
import { removeStraySpools, spoolRoot } from './detached-cli.js';
import type {
  ApprovalRecord,
  ApprovalStatus,
  RunRecord,
  ThreadMode,
  ThreadRecord,
} from '../store/records.js';
import { describeFix, securePrivateDir } from '../store/private-dir.js';
import { isPostgresUrl } from '../store/store-target.js';
import type { Store } from '../store/store.js';
import type { HostRecord } from '../store/host-registry.js';
import { SupervisorCore } from './core.js';
import type { FleetMembership, ThreadHost } from './fleet/fleet.js';
import { openHostStore } from './fleet/host-store.js';
import { placeThread } from './fleet/placement.js';
import { RemoteCommands, type CommandRequest, type ForwardedCommand } from './fleet/remote-commands.js';
import { eventStream, visiblePart } from './event-stream.js';
import { evaluatePolicy, validateMode } from '../policy/policy.js';
import { ThreadRuntime } from './thread-runtime.js';
import { buildTimeline, type TimelineItem } from './timeline.js';
import type {
  CloseOptions,
  Decision,
  EventsOptions,
  NewThread,
  SupervisorEvent,
  SupervisorOptions,
  ThreadView,
} from './types.js';
import { decisionInput } from './decision-input.js';
import { planStart, verdictForPerson } from './person-tools.js';
import { titleFromPrompt } from './thread-title.js';
import { validateDecision, validateId, validateNewThread, validateText, validateTitle } from './validate.js';

export { DATABASE_FILE } from '../store/open-store.js';
/** How soon a deadline the store could not record is applied again. */
const DEADLINE_RETRY_MS = 1000;

export class Supervisor {
  readonly #core: SupervisorCore;
  readonly #runtimes = new Map<string, ThreadRuntime>();
  /** Answers approvals whose deadline passes (deadline-clock.ts). */
  readonly #deadlines = new DeadlineClock((approvalId) => this.#deadlinePassed(approvalId));
  /**
   * What open() found and closed out from a previous host that did not close cleanly, how many of its
   * CLI processes were still running and were stopped, and how many detached ones were re-attached.
   */
  readonly recovered: RecoverySummary & { processesStopped: number; processesReattached: number };
  /**
   * Settles once every CLI re-attached by open() has said which requests it still waits on: from then on
   * their approvals are answerable (decide() waits for this by itself) and the others are cancelled
   * (`not_pending_after_restart`). Never rejects.
   */
  readonly reattached: Promise<void>;
  #closed: Promise<void> | undefined;

  /**
   * Opens the store: SQLite in `dataDir`, or the PostgreSQL database `options.store` names. Detached CLIs
   * an earlier host left running are re-attached: their threads carry on, pending approvals stay pending
   * under their ids. What no process can answer any more is closed out: unfinished runs become
   * `interrupted` (`host_restart`), pending approvals `expired`, running subagents `lost`; leftover
   * processes that cannot be re-attached are stopped.
   */
  static open(options: SupervisorOptions): Promise<Supervisor> {
    if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
    const { dataDir, claudePath, env, onWarning, query, detached = true, store: storeUrl, host } = options;
    if (storeUrl !== undefined && (typeof storeUrl !== 'string' || !isPostgresUrl(storeUrl)))
      throw new TypeError('options.store must be a postgres:// URL');
    if (host !== undefined && storeUrl === undefined)
      throw new TypeError('options.host needs options.store: a fleet shares a PostgreSQL store');
    if (typeof detached !== 'boolean') throw new TypeError('options.detached must be a boolean');
    if (typeof dataDir !== 'string' || dataDir === '') throw new TypeError('options.dataDir must be a path');
    if (claudePath !== undefined && typeof claudePath !== 'string')
      throw new TypeError('options.claudePath must be a string');
    if (env !== undefined && (typeof env !== 'object' || env === null))
      throw new TypeError('options.env must be an object');
    if (onWarning !== undefined && typeof onWarning !== 'function')
      throw new TypeError('options.onWarning must be a function');
    if (query !== undefined && typeof query !== 'function')
      throw new TypeError('options.query must be a function');
    const idleParkMs = validateIdleParkMs(options.idleParkMs);
    return attempt(async () => {
      // Private to this user (0700/0600); what had to be tightened is said, a foreign owner refused.
      for (const fix of securePrivateDir(dataDir)) onWarning?.(new StoreError(describeFix(fix)));
      // One host of a fleet: it recovers, re-attaches and runs only the threads it owns (fleet.ts).
      const { store, fleet } = openHostStore(storeUrl ?? dataDir, host);
      const owned = (threadId: string) => fleet?.owns(threadId) ?? true;
      try {
        // First the processes an earlier host left (the store holds the lock, so no live host owns them):
        // detached ones still running are joined again; the others stopped, their threads closed out.
        const root = spoolRoot(dataDir);
        const attachable = detached ? reattachableProcesses(store, root) : new Map<string, never>();
        for (const threadId of attachable.keys()) if (!owned(threadId)) attachable.delete(threadId);
        // Kept as they are: threads re-attached here, and those other hosts run.
        const keep = new Set(attachable.keys());
        for (const thread of store.listThreads()) if (!owned(thread.id)) keep.add(thread.id);
        const processesStopped = await stopLeftoverProcesses(store, keep);
        const recovered = {
          ...recoverAfterCrash(store, keep),
          processesStopped,
          processesReattached: attachable.size,
        };
        removeStraySpools(root, new Set([...attachable.values()].map((cli) => cli.spoolDir)));
        // What recovery recorded is on disk before anyone is shown it.
        await store.durable();
        const core = new SupervisorCore(store, {
          dataDir,
          detached,
          idleParkMs,
          claudePath,
          env,
          onWarning,
          query: query ?? sdkQuery,
          // On PostgreSQL the CLIs' transcripts are mirrored there: any host can resume a conversation.
          sessionStore: store.hosts()?.transcriptStore(),
        });
        const supervisor = new Supervisor(core, recovered, fleet);
        for (const [threadId, cli] of attachable) {
          try {
            supervisor.#runtime(threadId).attach(cli);
          } catch (error) {
            // Its thread is closed out (attach_failed); the process must not outlive that.
            core.warnFailure(error, `Could not re-attach to the CLI of thread ${threadId}`);
            void stopLeftover(cli);
          }
        }
        void Promise.all(core.reconciling.values()).then(supervisor.#reattachedNow);
        // A deadline that passed while no host ran applies now (decide() waits for re-attached CLIs).
        supervisor.#deadlines.restore(
          store.listApprovals({ status: 'pending' }).filter((approval) => owned(approval.threadId)),
        );
        fleet?.follow(core, () => supervisor.#liveClis());
        // What other hosts asked of this one while it was down runs now, once.
        supervisor.#remote?.resume();
        return supervisor;
      } catch (error) {
        store.close();
        throw error;
      }
    });
  }

  readonly #fleet: FleetMembership | undefined;
  /** Commands for threads another host runs, and those other hosts ask this one to run (fleet only). */
  readonly #remote: RemoteCommands | undefined;

  private constructor(
    core: SupervisorCore,
    recovered: Supervisor['recovered'],
    fleet: FleetMembership | undefined,
  ) {
    this.#core = core;
    this.#fleet = fleet;
    this.#remote =
      fleet === undefined
        ? undefined
        : new RemoteCommands(core, fleet, (request) => this.#runRequested(request));
    this.recovered = recovered;
    this.reattached = new Promise((resolve) => (this.#reattachedNow = resolve));
    core.committedListeners.push((events) => this.#deadlines.onCommitted(events));
    core.committedListeners.push((events) => this.#remote?.onCommitted(events));
    // Anything recorded for a thread starts its idle period again (idle-park.ts).
    core.committedListeners.push((events) => {
      let last: string | undefined;
      for (const { threadId } of events)
        if (threadId !== last) this.#runtimes.get((last = threadId))?.noteActivity();
    });
  }

  #reattachedNow!: () => void;

  get #store(): Store {
    return this.#core.store;
  }

  createThread(input: NewThread): Promise<ThreadRecord> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      const { cwd, mode, model, rules } = validateNewThread(input);
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
            ...(placed === undefined ? {} : { host: placed }),
          },
        },
        ...(title === null
          ? []
          : [{ type: 'thread.titled' as const, data: { title, source: 'user' as const } }]),
      ]);
      return this.#thread(id);
    });
  }

  /** Sends a user message; starts (or resumes) the thread's CLI session if none is live. */
  send(threadId: string, text: string): Promise<RunRecord> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      validateText(text);
      // A thread another live host runs: that host sends it, as the run named by the request's id.
      const title = this.#thread(threadId).title === null ? titleFromPrompt(text) : null;
      const forwarded = this.#remote?.forward(
        threadId,
        'send',
        { text },
        title === null ? [] : [{ type: 'thread.titled', data: { title, source: 'prompt' } }],
      );
      if (forwarded !== undefined) return forwardedRun(forwarded.event, text);
      // A thread whose host went away is taken over here, its CLI resumed from the mirrored transcript.
      this.#core.publish(this.#fleet?.adoptIfOrphaned(threadId, 'send to') ?? []);
      const runtime = this.#runtime(threadId);
      // A thread nobody named is called after its first prompt.
      if (title !== null)
        this.#core.commit(threadId, [{ type: 'thread.titled', data: { title, source: 'prompt' } }]);
      return runtime.send(text);
    });
  }

  /** Names the thread (one line; invisible characters become markers). */
  rename(threadId: string, title: string): Promise<ThreadRecord> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      const safe = validateTitle(title);
      const thread = this.#thread(threadId);
      if (thread.title !== safe)
        this.#core.commit(threadId, [{ type: 'thread.titled', data: { title: safe, source: 'user' } }]);
      return this.#thread(threadId);
    });
  }

  /**
   * Answers a pending approval. Compare-and-set: a settled approval gives a ConflictError. Right after a
   * re-attach, waits until the CLI has said whether it still waits on the request.
   */
  decide(approvalId: string, decision: Decision): Promise<ApprovalRecord> {
    return this.#acknowledged(async () => {
      this.#checkOpen();
      validateId(approvalId, 'approvalId');
      validateDecision(decision);
      const { threadId } = this.#approval(approvalId);
      const reconciling = this.#core.reconciling.get(threadId);
      if (reconciling !== undefined && !this.#core.waiters.has(approvalId)) await reconciling;
      return this.#decide(approvalId, decision);
    });
  }

  #decide(approvalId: string, decision: Decision): ApprovalRecord {
    this.#checkOpen();
    validateId(approvalId, 'approvalId');
    const { behavior, message, interrupt, by, decidedBy } = validateDecision(decision);
    const approval = this.#approval(approvalId);
    if (approval.status !== 'pending')
      throw new ConflictError(`Approval ${approvalId} is already ${approval.status}`);
    // An edit, answers or a plan's end: checked (and an edit judged by the policy) before anything is sent.
    const sent = decisionInput(approval, decision, () => this.#runtime(approval.threadId).policy());
    const edit = sent.updatedInput === null ? {} : { updatedInput: sent.updatedInput };
    if (behavior === 'allow_always' && approval.alwaysAllowRules.length === 0)
      throw new ValidationError(
        `allow_always is not offered for approval ${approvalId}: no rule as narrow as the request exists for ${approval.toolName}; allow it once instead`,
        'behavior',
      );
    // Another host's thread: its owner holds the request and answers it once the decision is committed.
    const elsewhere = this.#fleet?.ownerElsewhere(approval.threadId) !== undefined;
    if (elsewhere) this.#fleet?.checkOwnerReachable(approval.threadId);
    if (!elsewhere && !this.#core.waiters.has(approvalId)) {
      // A pending approval nobody waits for cannot be answered: settle it rather than pretend.
      this.#core.commit(approval.threadId, [
        { type: 'approval.cancelled', data: { approvalId, reason: 'no_live_request' } },
      ]);
      throw new ConflictError(`Approval ${approvalId} has no live request to answer; it was cancelled`);
    }
    // The rules the approval shows (or narrower ones), for the scope chosen; never the CLI's suggestions.
    const thread = this.#thread(approval.threadId);
    const grant =
      behavior === 'allow_always'
        ? validateGrant(approval, thread.cwd, decision.scope, decision.rules)
        : null;
    const updatedPermissions =
      grant !== null
        ? grantUpdates(grant)
        : sent.permissionUpdates.length > 0
          ? sent.permissionUpdates
          : null;
    this.#core.commit(approval.threadId, [
      {
        type: 'approval.decided',
        data: { ...edit, approvalId, behavior, message, interrupt, updatedPermissions, by, decidedBy },
      },
      ...(grant === null
        ? []
        : [
            {
              type: 'thread.rules_granted' as const,
              data: {
                approvalId,
                scope: grant.scope,
                rules: grant.rules,
                sessionId: grant.scope === 'session' ? thread.sessionId : null,
              },
            },
          ]),
    ]);
    // A plan approved with a mode chosen: the thread goes on in that mode.
    if (sent.mode !== null) this.#setMode(approval.threadId, sent.mode);
    return this.#approval(approvalId);
  }

  /** Interrupts the turn in progress; for a thread another live host runs, that host does once it hears of it. */
  interrupt(threadId: string): Promise<void> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      if (this.#forward(threadId, 'interrupt', {}) !== undefined) return;
      this.#fleet?.checkRunsHere(threadId, 'interrupt');
      return this.#runtime(threadId).interrupt();
    });
  }

  stop(threadId: string): Promise<void> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      if (this.#forward(threadId, 'stop', {}) !== undefined) return;
      this.#fleet?.checkRunsHere(threadId, 'stop');
      return this.#runtime(threadId).stop('thread_stopped');
    });
  }

  /** Stops one running background subagent; its pending approvals become `cancelled` (`subagent_stopped`). */
  stopSubagent(subagentId: string): Promise<void> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      validateId(subagentId, 'subagentId');
      const subagent = this.#store.getSubagent(subagentId);
      if (subagent === undefined)
        throw new NotFoundError('subagent', subagentId, `Unknown subagent ${JSON.stringify(subagentId)}`);
      if (this.#forward(subagent.threadId, 'stop_subagent', { subagentId }) !== undefined) return;
      this.#fleet?.checkRunsHere(subagent.threadId, 'stop its subagents on');
      return this.#runtime(subagent.threadId).stopSubagent(subagentId);
    });
  }

  /** Changes the thread's mode; pending approvals the new policy decides by itself are settled now. */
  setMode(threadId: string, mode: ThreadMode): Promise<ThreadRecord> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      // Another live host runs the thread: it changes the mode (and settles what its policy now decides).
      if (this.#forward(threadId, 'set_mode', { mode: validateMode(mode) }) !== undefined)
        return this.#thread(threadId);
      return this.#setMode(threadId, mode);
    });
  }

  /**
   * The host that would run a command for the thread, when it is another live host of the fleet (the
   * command is then recorded here and run there); undefined when this host runs it.
   */
  commandHost(threadId: string): string | undefined {
    this.#checkOpen();
    // Reading the thread folds in what other hosts committed (a thread just placed here, say).
    this.#thread(threadId);
    const owner = this.#fleet?.ownerElsewhere(threadId);
    if (owner === undefined) return undefined;
    return this.#fleet?.listHosts().find((host) => host.name === owner)?.live === true ? owner : undefined;
  }

  #forward(
    threadId: string,
    command: CommandRequest['data']['command'],
    args: CommandRequest['data']['args'],
  ): ForwardedCommand | undefined {
    validateId(threadId, 'threadId');
    this.#thread(threadId);
    const forwarded = this.#remote?.forward(threadId, command, args);
    return forwarded === undefined ? undefined : { requestId: forwarded.requestId, host: forwarded.host };
  }

  /** Runs on this host, its owner, a command another host recorded for one of its threads (remote-commands.ts). */
  async #runRequested(request: CommandRequest): Promise<void> {
    if (this.#closed !== undefined) return;
    const { threadId } = request;
    const { requestId, command, args } = request.data;
    if (command === 'send') {
      // The run of that id is the mark that it was sent.
      if (this.#store.getRun(requestId) !== undefined) return;
      try {
        await this.#runtime(threadId).send(args.text ?? '', undefined, requestId);
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
    if (command === 'interrupt') await this.#runtime(threadId).interrupt();
    else if (command === 'stop') await this.#runtime(threadId).stop('thread_stopped');
    else if (command === 'stop_subagent') await this.#runtime(threadId).stopSubagent(args.subagentId ?? '');
    else if (command === 'set_mode' && args.mode !== undefined) this.#setMode(threadId, args.mode);
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
      const liveHere = this.#liveClis();
      const me = this.#fleet.name;
      const chosen = placeThread(hosts, { cwd, host: named, me, liveHere });
      if (this.#fleet.reserve(chosen, chosen === me ? liveHere : null))
        return chosen === me ? undefined : chosen;
      if (attempt >= hosts.length)
        throw new ConflictError('Cannot place the thread: other hosts kept taking the room it was offered');
    }
  }

  #setMode(threadId: string, mode: ThreadMode): ThreadRecord {
    this.#checkOpen();
    const next = validateMode(mode);
    const thread = this.#thread(threadId);
    if (thread.mode === next) return thread;
    this.#core.commit(threadId, [
      { type: 'thread.mode_changed', data: { mode: next, previous: thread.mode } },
    ]);
    const policy = this.#runtime(threadId).policy();
    for (const approval of this.#store.listApprovals({ threadId, status: 'pending' })) {
      // The CLI's reason for asking still counts: a write it called sensitive is never settled by a mode.
      const verdict = verdictForPerson(
        approval.toolName,
        evaluatePolicy(policy, approval.toolName, approval.input, {
          decisionReason: approval.decisionReason,
          blockedPath: approval.blockedPath,
        }),
      );
      if (verdict.behavior === 'ask') continue;
      this.#core.commit(threadId, [
        {
          type: 'approval.decided',
          data: {
            approvalId: approval.id,
            behavior: verdict.behavior,
            message:
              verdict.behavior === 'deny' ? `Denied by the supervisor's policy: ${verdict.reason}` : null,
            interrupt: false,
            updatedPermissions: null,
            by: 'policy',
            decidedBy: { name: 'policy', via: 'policy' },
          },
        },
      ]);
    }
    return this.#thread(threadId);
  }

  /**
   * The host that runs each of the threads and whether it is reachable; empty outside a fleet (and for
   * threads from before hosts had names).
   */
  threadHosts(threadIds: Iterable<string>): Map<string, ThreadHost> {
    return this.#fleet?.hostsOf(threadIds) ?? new Map<string, ThreadHost>();
  }

  /** Whether the thread has a run queued or running, or a subagent at work (on whichever host runs it). */
  isBusy(threadId: string): boolean {
    this.#checkOpen();
    return (
      this.#store.listRuns(threadId).some((run) => run.status === 'queued' || run.status === 'running') ||
      this.#store.listSubagents(threadId).some((subagent) => subagent.status === 'running')
    );
  }

  /** The hosts of the fleet and their leases (empty for a store of one host). */
  listHosts(): HostRecord[] {
    this.#checkOpen();
    return this.#fleet?.listHosts() ?? [];
  }

  /** How many CLIs this host runs now. */
  #liveClis(): number {
    let count = 0;
    for (const runtime of this.#runtimes.values()) if (runtime.live !== undefined) count += 1;
    return count;
  }

  listThreads(): ThreadRecord[] {
    this.#checkOpen();
    return this.#store.listThreads().map((thread) => this.#titled(thread));
  }

  getThread(threadId: string): ThreadView {
    this.#checkOpen();
    const thread = this.#thread(threadId);
    return {
      thread,
      runs: this.#store.listRuns(threadId),
      subagents: this.#store.listSubagents(threadId),
      approvals: this.#store.listApprovals({ threadId }),
    };
  }

  getApproval(approvalId: string): ApprovalRecord {
    this.#checkOpen();
    return this.#approval(approvalId);
  }

  listApprovals(filter: { status?: ApprovalStatus; threadId?: string } = {}): ApprovalRecord[] {
    this.#checkOpen();
    return this.#store.listApprovals(filter);
  }

  /** The conversation as a UI shows it, rebuilt from the thread's events. */
  timeline(threadId: string): TimelineItem[] {
    this.#checkOpen();
    this.#thread(threadId);
    const events: SupervisorEvent[] = [];
    for (let after = 0; ;) {
      const page = this.#store.readEvents({ threadId, after, limit: 1000 });
      if (page.length === 0) break;
      events.push(...page);
      after = page.at(-1)?.seq ?? after;
    }
    return buildTimeline(events);
  }

  /** One page of the log after the global seq `after` (default 0), at most `limit` (default 500); never waits. */
  readEvents(query: { after?: number; threadId?: string; limit?: number } = {}): SupervisorEvent[] {
    this.#checkOpen();
    const { after = 0, limit = 500 } = query;
    if (!Number.isInteger(after) || after < 0) throw new TypeError('after must be a non-negative integer');
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError('limit must be a positive integer');
    return visiblePart(
      this.#store.readEvents({
        after,
        limit,
        ...(query.threadId === undefined ? {} : { threadId: query.threadId }),
      }),
      // Nothing a machine crash could still take back.
      this.#core.visibleThrough,
    );
  }

  /** The global seq of the last event in the log (0 when empty). */
  lastSeq(): number {
    this.#checkOpen();
    return Math.min(this.#store.lastSeq(), this.#core.visibleThrough);
  }

  /**
   * Resolves once every change committed so far is on disk and shown to readers (events(), readEvents())
   * and the CLI requests it answers have their answers: a quiet point to read the log as a whole against
   * the current state. Rejects with a StoreError when the store could not make it durable.
   */
  durable(): Promise<void> {
    this.#checkOpen();
    return this.#core.durable();
  }

  /** One page of the audit trail: records after seq `after`, at or after the time `since` (audit-chain.ts). */
  readAudit(query: AuditQuery = {}): AuditRow[] {
    this.#checkOpen();
    return this.#store.readAudit(query);
  }

  /** Checks the audit trail's chain from its first record (audit-chain.ts). */
  verifyAudit(): VerifyResult {
    this.#checkOpen();
    return verifyAuditRows(auditRows(this.#store));
  }

  /** Replays the log after `since` (a global seq), then follows it live, until close() or the signal. */
  events(options: EventsOptions = {}): AsyncIterable<SupervisorEvent> {
    this.#checkOpen();
    if (options.since !== undefined && !(Number.isInteger(options.since) && options.since >= 0))
      throw new TypeError('options.since must be a non-negative integer');
    return eventStream(this.#store, this.#core.notifier, () => this.#core.visibleThrough, options);
  }

  /**
   * Lets go of every live CLI, ends iterators, closes the store. Detached CLIs are left running (the next
   * open() re-attaches; their approvals stay pending, their runs go on); with `stopAgents`, and for CLIs
   * that are not detached, the CLI is stopped (runs interrupted, approvals cancelled: `host_closed`).
   */
  close(options: CloseOptions = {}): Promise<void> {
    if (typeof options !== 'object' || options === null)
      return Promise.reject(new TypeError('options must be an object'));
    const { stopAgents = false } = options;
    if (typeof stopAgents !== 'boolean')
      return Promise.reject(new TypeError('options.stopAgents must be a boolean'));
    this.#closed ??= (async () => {
      try {
        await Promise.all(
          [...this.#runtimes.values()].map((runtime) =>
            stopAgents ? runtime.stop('host_closed') : runtime.detach(),
          ),
        );
      } finally {
        this.#deadlines.clear();
        // What the store could not take yet gets a last try, and what is left is reported (record-backlog.ts).
        this.#core.backlog.close();
        // What was committed while closing is on disk and published before iterators end (a failure was
        // reported by the publisher).
        await this.#core.durable().catch(() => undefined);
        this.#core.notifier.close();
        this.#store.close();
      }
    })();
    return this.#closed;
  }

  /** Removes a rule granted for the thread or its CLI session; the policy stops applying it at once. */
  revokeRule(threadId: string, rule: string, scope: 'thread' | 'session' = 'thread'): Promise<ThreadRecord> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      if (typeof rule !== 'string' || rule === '')
        throw new ValidationError('rule must be a non-empty string', 'rule');
      if (scope !== 'thread' && scope !== 'session')
        throw new ValidationError(
          'scope must be thread or session (a project rule lives in its settings file)',
          'scope',
        );
      this.#thread(threadId);
      this.#core.commit(threadId, [{ type: 'thread.rule_revoked', data: { rule, scope } }]);
      return this.#thread(threadId);
    });
  }

  /** Sets when the thread's new approvals are answered by themselves; pending ones keep their deadline. */
  setDeadlines(threadId: string, deadlines: NewThread['deadlines']): Promise<ThreadRecord> {
    return this.#acknowledged(() => {
      this.#checkOpen();
      const checked = validateDeadlines(deadlines);
      this.#thread(threadId);
      this.#core.commit(threadId, [{ type: 'thread.deadlines_set', data: { deadlines: checked } }]);
      return this.#thread(threadId);
    });
  }

  /**
   * The pending approvals a batch would cover: a thread's, a subagent's, or those a rule covers (for an
   * allow, as an allow rule would: every part of a command). Apply with decideBatch() on these ids.
   */
  previewBatch(select: BatchSelection, behavior: 'allow' | 'deny' = 'allow'): ApprovalRecord[] {
    this.#checkOpen();
    const selection = validateSelection(select);
    if (behavior !== 'allow' && behavior !== 'deny')
      throw new ValidationError('a batch allows or denies', 'behavior');
    const pending = this.#store.listApprovals({ status: 'pending' });
    return selectApprovals(pending, selection, behavior, (threadId) => this.#thread(threadId).cwd);
  }

  /**
   * Answers each of `approvalIds` (the ones a preview listed) with one decision, each compare-and-set on
   * its own: those settled meanwhile are reported, not answered again.
   */
  decideBatch(approvalIds: readonly string[], decision: Decision): Promise<BatchResult> {
    return this.#acknowledged(async () => {
      this.#checkOpen();
      const ids = validateBatchIds(approvalIds);
      const { behavior } = validateDecision(decision);
      if (behavior === 'allow_always') throw new ValidationError('a batch allows once or denies', 'behavior');
      for (const id of ids) this.#approval(id);
      const result: BatchResult = { decided: [], alreadySettled: [] };
      for (const id of ids) {
        try {
          result.decided.push(await this.decide(id, decision));
        } catch (error) {
          if (!(error instanceof ConflictError)) throw error;
          result.alreadySettled.push({ id, status: this.#approval(id).status });
        }
      }
      return result;
    });
  }

  /** A deadline passed: the approval is answered as its deadline says, if it is still pending. */
  #deadlinePassed(approvalId: string): void {
    if (this.#closed !== undefined) return;
    const approval = this.#store.getApproval(approvalId);
    if (approval?.status !== 'pending' || approval.deadline === null) return;
    const { behavior } = approval.deadline;
    const decision: Decision = {
      behavior,
      ...(behavior === 'deny' ? { message: deadlineMessage(approval.deadline) } : {}),
      by: 'timeout',
      decidedBy: { name: 'deadline', via: 'timeout' },
    };
    this.decide(approvalId, decision).catch((error: unknown) => {
      // The store cannot write for now: the deadline still applies, once it can.
      if (error instanceof StoreError) {
        this.#core.warn(error);
        setTimeout(() => this.#deadlinePassed(approvalId), DEADLINE_RETRY_MS).unref();
        return;
      }
      // Answered or withdrawn at the same moment: the first change stands.
      if (!(error instanceof ConflictError))
        this.#core.warnFailure(error, `Could not apply the deadline of approval ${approvalId}`);
    });
  }

  /**
   * Runs a change and settles only once everything it committed is on disk: no reply, success or refusal,
   * leaves before the store's barrier (a refusal may follow a change too, as a cancelled approval). When
   * the store could not make it durable, the caller gets that StoreError instead.
   */
  #acknowledged<T>(change: () => T | Promise<T>): Promise<T> {
    const durable = (): Promise<void> => this.#core.durable();
    return attempt(change).then(
      async (value) => {
        await durable();
        return value;
      },
      async (error: unknown) => {
        await durable();
        throw error;
      },
    );
  }

  #checkOpen(): void {
    if (this.#closed !== undefined) throw new ConflictError('The supervisor is closed');
  }

  #runtime(threadId: string): ThreadRuntime {
    validateId(threadId, 'threadId');
    this.#thread(threadId);
    let runtime = this.#runtimes.get(threadId);
    if (runtime === undefined) {
      runtime = new ThreadRuntime(this.#core, threadId);
      this.#runtimes.set(threadId, runtime);
    }
    return runtime;
  }

  #thread(threadId: string): ThreadRecord {
    const thread = this.#store.getThread(threadId);
    if (thread === undefined)
      throw new NotFoundError('thread', threadId, `Unknown thread ${JSON.stringify(threadId)}`);
    return this.#titled(thread);
  }

  /** A thread from before titles were recorded is named by its first prompt, as a new one would be. */
  #titled(thread: ThreadRecord): ThreadRecord {
    if (thread.title !== null) return thread;
    const prompt = this.#store.listRuns(thread.id).find((run) => run.prompt !== null)?.prompt;
    return { ...thread, title: prompt === undefined || prompt === null ? null : titleFromPrompt(prompt) };
  }

  #approval(approvalId: string): ApprovalRecord {
    const approval = this.#store.getApproval(approvalId);
    if (approval === undefined)
      throw new NotFoundError('approval', approvalId, `Unknown approval ${JSON.stringify(approvalId)}`);
    return approval;
  }
}

/** Runs `fn` so that whatever it throws becomes a rejection: async methods never throw synchronously. */
function attempt<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
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
