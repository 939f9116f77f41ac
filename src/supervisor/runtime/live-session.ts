// One CLI process of a thread: its query(), its held-open input, and what its frames mean for runs and
// subagents. A run's context (which subagents it owns, whether it ended) lives here until the run has
// ended and none of its subagents runs; then the run is released and nothing can be routed to it.
import type { CanUseTool } from '../../session/options.js';
import { ProtocolError, toError } from '../../protocol/errors.js';
import { InputLifecycle } from '../../session/input-lifecycle.js';
import type { CliLaunch, CliTransport } from '../../transport/cli-transport.js';
import { spoolOffsetOf, type DetachedTransport } from '../../transport/detached-transport.js';
import { startTicksOf } from '../../transport/process-tree.js';
import type { EventDraft } from '../../store/event-types.js';
import type { ApprovalRecord } from '../../store/records.js';
import type { SupervisorCore } from '../core.js';
import {
  joinThreadCli,
  spawnThreadCli,
  spoolRoot,
  type DetachedProcess,
  type SpawnedCli,
} from '../durable/detached-cli.js';
import { cliOptions } from './cli-options.js';
import { snapshotSession } from './session-snapshot.js';
import {
  apiRetryDraft,
  assistantDraft,
  malformedResult,
  originOf,
  runResultOf,
  str,
  subagentStatusOf,
  toolResultDrafts,
  toolUseIds,
  userMessageUuids,
} from './frame-events.js';
import { InputQueue } from './input-queue.js';
import { TurnTracker } from './turn-tracker.js';
import type { SupervisedQuery } from '../types.js';

type Frame = Record<string, unknown>;

export interface RunContext {
  ended: boolean;
  /** Running subagents this run owns. */
  readonly subagents: Set<string>;
}

export interface LiveSessionSetup {
  readonly threadId: string;
  readonly generation: number;
  readonly cwd: string;
  readonly model: string | null;
  readonly resume: string | null;
  /** Start the CLI in plan mode (a thread created so, whose plan is not approved yet). */
  readonly plan?: boolean;
  readonly canUseTool: (session: LiveSession) => CanUseTool;
  readonly onEnded: (session: LiveSession, error: Error | undefined) => void;
  /** Told of every frame the CLI sends (the idle clock starts again). */
  readonly onActivity?: () => void;
  /** The thread's detached CLI an earlier host left running: join it instead of starting one. */
  readonly attach?: DetachedProcess;
}

/** How long re-delivered requests may take to reach the gate before the stored leftovers are cancelled. */
const CLAIM_GRACE_MS = 10_000;

/** Drafts of one frame, committed together; remembers which approvals it already cancels. */
class Batch {
  readonly drafts: EventDraft[] = [];
  readonly cancelled = new Set<string>();
}

export class LiveSession {
  readonly threadId: string;
  readonly generation: number;
  /** The CLI session this process was asked to resume, if any. */
  readonly resume: string | null;
  readonly tracker: TurnTracker;
  readonly input = new InputQueue();
  readonly query: SupervisedQuery;
  readonly subagents = new Map<string, { runId: string; running: boolean }>();
  readonly contexts = new Map<string, RunContext>();
  /** Runs interrupt() aimed at: their error result means `interrupted`, their approvals' aborts too. */
  readonly interrupting = new Set<string>();
  readonly stoppingSubagents = new Set<string>();
  /**
   * What the CLI's own stream says about it (idle-park.ts): background tasks it still lists (the level
   * signal `background_tasks_changed` included), a turn it started itself, the state it reports.
   */
  readonly cliActivity = new InputLifecycle();
  /** Why the supervisor is ending this process (stop, close, park); undefined while it should live. */
  endReason: string | undefined;
  /** Parked after this long idle (its end then records thread.parked); undefined otherwise. */
  parkedAfterMs: number | undefined;
  /**
   * The host is letting go of this process and leaving it running (close() without stopAgents): its end
   * here closes nothing out; approvals stay pending and runs running, for the next host.
   */
  detaching = false;
  /** This host joined a process an earlier host started. */
  readonly attached: boolean;
  /** The detached process's transport, when it runs detached. */
  #transport: DetachedTransport | undefined;
  #spawned: SpawnedCli | undefined;
  /** The spool offset committed with the events of the last frame that produced any. */
  #committedOffset = 0;
  /** Approvals the earlier host made for this process, by request id: a request that comes again. */
  readonly #stored = new Map<string, ApprovalRecord>();
  /** Re-delivered requests that reached the gate, by approval id. */
  readonly #claims = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  #readEnded: (() => void) | undefined;
  readonly #whenReadEnded = new Promise<void>((resolve) => (this.#readEnded = resolve));
  #finished: Promise<void> | undefined;
  #sessionId: string | undefined;
  readonly #usesCliSandbox: boolean;
  /** The CLI's pid once it is recorded in the log (undefined: unknown, or not recorded). */
  readonly #recordedPid: Promise<number | undefined>;
  /** Who waits for a subagent to end (stopSubagent), by task id. */
  readonly #endWaiters = new Map<string, (() => void)[]>();
  readonly #core: SupervisorCore;
  /** The process an earlier host left, when this session joins it. */
  readonly #joined: DetachedProcess | undefined;
  readonly #onEnded: LiveSessionSetup['onEnded'];
  readonly #onActivity: () => void;

  constructor(core: SupervisorCore, setup: LiveSessionSetup) {
    this.#core = core;
    this.threadId = setup.threadId;
    this.generation = setup.generation;
    this.resume = setup.resume;
    this.#onEnded = setup.onEnded;
    this.#onActivity = setup.onActivity ?? (() => undefined);
    this.tracker = new TurnTracker(() => core.newId());
    const { attach } = setup;
    this.attached = attach !== undefined;
    this.#joined = attach;
    if (attach !== undefined) {
      this.#restore(attach);
    }
    const cliTransport =
      attach !== undefined
        ? (launch: CliLaunch) => Promise.resolve(this.#keep(joinThreadCli(launch, attach)))
        : core.options.detached
          ? (launch: CliLaunch) => this.#spawn(launch)
          : undefined;
    const { options, usesCliSandbox } = cliOptions(core, {
      ...setup,
      canUseTool: setup.canUseTool(this),
      attached: attach !== undefined,
      cliTransport,
    });
    this.#usesCliSandbox = usesCliSandbox;
    this.query = core.options.query({ prompt: this.input, options });
    // A joined process is on record already (its session.reattached was committed before this).
    this.#recordedPid =
      attach !== undefined
        ? Promise.resolve(attach.pid)
        : (this.query.pid ?? Promise.resolve(undefined)).then((pid) =>
            pid === undefined || pid <= 0 ? undefined : this.#recordSpawn(pid),
          );
    // decide() waits for this rather than cancel an approval whose request has yet to come again.
    if (attach !== undefined) core.reconciling.set(this.threadId, this.#reconcile());
  }

  /**
   * Whether close() can leave this process running: it runs detached and the query can let go. A process
   * joined again is detached even before the query has taken its transport.
   */
  get detachable(): boolean {
    return (
      (this.#transport !== undefined || this.#joined !== undefined) && typeof this.query.detach === 'function'
    );
  }

  /** The spool offset committed so far (0 for a piped process). */
  get spoolOffset(): number {
    return this.#committedOffset;
  }

  /** The process's pid, for a detached one (the query's own `pid` says it for any). */
  get detachedPid(): number | undefined {
    return this.#transport?.pid ?? this.#joined?.pid;
  }

  /** The detached process's own directory (its pipe, spool and watchdog markers). */
  get spoolDir(): string | undefined {
    return this.#spawned?.spoolDir ?? this.#joined?.spoolDir;
  }

  async #spawn(launch: CliLaunch): Promise<CliTransport> {
    const spawned = await spawnThreadCli(launch, {
      root: spoolRoot(this.#core.options.dataDir),
      threadId: this.threadId,
      generation: this.generation,
    });
    this.#spawned = spawned;
    return this.#keep(spawned.transport);
  }

  #keep(transport: DetachedTransport): DetachedTransport {
    this.#transport = transport;
    return transport;
  }

  /** Takes over what the earlier host knew of the process, from the store (session-snapshot.ts). */
  #restore(attach: DetachedProcess): void {
    const snapshot = snapshotSession(this.#core.store, this.threadId, this.generation);
    this.tracker.restore(snapshot.tracker);
    for (const { runId, ended } of snapshot.contexts)
      this.contexts.set(runId, { ended, subagents: new Set() });
    for (const { subagentId, runId } of snapshot.subagents) {
      this.subagents.set(subagentId, { runId, running: true });
      this.contexts.get(runId)?.subagents.add(subagentId);
    }
    if (snapshot.sessionId !== null) this.#sessionId = snapshot.sessionId;
    for (const approval of snapshot.approvals) this.#stored.set(approval.requestId, approval);
    this.#committedOffset = attach.spoolOffset;
  }

  /**
   * The approval the earlier host made for a request the CLI sends again (same request id, or same tool
   * call while still pending); undefined for a request the store never saw.
   */
  storedApproval(requestId: string, toolUseId: string): ApprovalRecord | undefined {
    const byRequest = this.#stored.get(requestId);
    if (byRequest !== undefined) return byRequest;
    for (const approval of this.#stored.values())
      if (approval.toolUseId === toolUseId && approval.status === 'pending') return approval;
    return undefined;
  }

  /** The gate took over a re-delivered request: its approval is answerable again. */
  claim(approvalId: string): void {
    this.#claimOf(approvalId).resolve();
  }

  #claimOf(approvalId: string): { promise: Promise<void>; resolve: () => void } {
    let claim = this.#claims.get(approvalId);
    if (claim === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      claim = { promise, resolve };
      this.#claims.set(approvalId, claim);
    }
    return claim;
  }

  /**
   * Once the CLI said which requests it still waits on and those reached the gate: every other approval
   * of the thread still pending has nobody left to answer it, and is cancelled (`not_pending_after_restart`).
   */
  async #reconcile(): Promise<void> {
    try {
      let again: Set<string>;
      try {
        again = new Set(await (this.query.redeliveredRequests?.() ?? Promise.resolve([])));
      } catch {
        return; // No answer to initialize: the process is gone, and its end closes everything out.
      }
      const pending = () => this.#core.store.listApprovals({ threadId: this.threadId, status: 'pending' });
      const claims = pending()
        // Only those the earlier host made: a request that came after the restart has its waiter already.
        .filter((approval) => again.has(approval.requestId) && this.#stored.has(approval.requestId))
        .map((approval) => this.#claimOf(approval.id).promise);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(claims),
        this.#whenReadEnded,
        new Promise((resolve) => (timer = setTimeout(resolve, CLAIM_GRACE_MS).unref())),
      ]);
      clearTimeout(timer);
      if (this.detaching || this.endReason !== undefined) return;
      const stale = pending().filter((approval) => !this.#core.waiters.has(approval.id));
      this.#core.record(
        this.threadId,
        stale.map((approval) => ({
          type: 'approval.cancelled' as const,
          data: { approvalId: approval.id, reason: 'not_pending_after_restart' },
        })),
      );
    } finally {
      this.#core.reconciling.delete(this.threadId);
    }
  }

  /**
   * Puts the process's identity in the log at once (the pid resolves in the same run of microtasks as
   * the spawn, before the process can have been reaped), so a host restarted after a crash can find it.
   */
  #recordSpawn(pid: number): number | undefined {
    const spawned = this.#spawned;
    const startTime = spawned?.startTicks ?? startTicksOf(pid) ?? null;
    const where = spawned === undefined ? {} : { spoolDir: spawned.spoolDir, marker: spawned.marker };
    const recorded = this.#core.record(this.threadId, [
      { type: 'session.process_started', data: { generation: this.generation, pid, startTime, ...where } },
    ]);
    return recorded.length > 0 ? pid : undefined;
  }

  /** Starts reading; resolves when the process is gone and the thread has been told. */
  get finished(): Promise<void> {
    this.#finished ??= this.#read();
    return this.#finished;
  }

  /** Whether the CLI reported its session (system/init): before that, no message reached the model. */
  get initialized(): boolean {
    return this.#sessionId !== undefined;
  }

  /**
   * Resolves once the subagent is no longer running here: its task_notification has been recorded, or the
   * process is gone. Continuations run after the frame's events are committed (#onFrame is synchronous).
   */
  whenSubagentEnded(taskId: string): Promise<void> {
    if (this.subagents.get(taskId)?.running !== true) return Promise.resolve();
    return new Promise((resolve) => {
      this.#endWaiters.set(taskId, [...(this.#endWaiters.get(taskId) ?? []), resolve]);
    });
  }

  newContext(runId: string): void {
    this.contexts.set(runId, { ended: false, subagents: new Set() });
  }

  async #read(): Promise<void> {
    let failure: Error | undefined;
    try {
      for await (const message of this.query) this.#onFrame(message);
    } catch (error) {
      failure = toError(error);
    } finally {
      this.input.end();
      this.#readEnded?.();
      this.#onEnded(this, failure);
      for (const taskId of [...this.#endWaiters.keys()]) this.#wakeEndWaiters(taskId);
    }
    // Iteration can end before the process has exited (after close()); "finished" means it is gone.
    await this.query.closed;
    // Left running for the next host: it stays on record.
    if (this.detaching) return;
    // Only a query that reports `closed` can say the process is gone; a stand-in without it has no pid.
    const pid = this.query.closed === undefined ? undefined : await this.#recordedPid;
    if (pid !== undefined)
      this.#core.record(this.threadId, [
        { type: 'session.process_exited', data: { generation: this.generation, pid } },
      ]);
  }

  #onFrame(frame: Frame): void {
    const batch = new Batch();
    this.cliActivity.observe(frame);
    this.#onActivity();
    try {
      switch (frame.type) {
        case 'system':
          this.#onSystem(frame, batch);
          break;
        case 'assistant': {
          const runId = this.#runOf(frame);
          if (runId === undefined) break;
          if (frame.parent_tool_use_id == null && frame.agent_id == null)
            this.tracker.noteToolUses(runId, toolUseIds(frame));
          const draft = assistantDraft(frame, runId);
          if (draft !== undefined) batch.drafts.push(draft);
          break;
        }
        case 'user': {
          const runId = this.#runOf(frame);
          if (runId !== undefined) batch.drafts.push(...toolResultDrafts(frame, runId));
          break;
        }
        case 'result':
          this.#onResult(frame, batch);
          break;
        default:
          break;
      }
    } finally {
      this.#commitFrame(batch, spoolOffsetOf(frame));
    }
  }

  /**
   * A frame's events and, for a detached process, the spool offset just past it, in one transaction: a
   * host that crashes reads on after the last frame whose events are in the log, so none is lost and none
   * processed twice. Frames that produce no event are not worth a transaction; reading them again changes
   * nothing.
   */
  #commitFrame(batch: Batch, offset: number | undefined): void {
    if (batch.drafts.length === 0) return;
    const options =
      offset === undefined || this.#transport === undefined ? undefined : { spoolOffset: offset };
    const committed = this.#core.record(this.threadId, batch.drafts, options);
    if (committed.length === 0 || options === undefined) return;
    this.#committedOffset = offset ?? this.#committedOffset;
    void this.#transport?.releaseBefore(this.#committedOffset);
  }

  #onSystem(frame: Frame, batch: Batch): void {
    switch (frame.subtype) {
      case 'init': {
        if (this.#usesCliSandbox)
          this.#core.options.sandbox.observeInit(frame, (warning) => this.#core.warn(warning));
        const sessionId = str(frame.session_id);
        if (sessionId !== null && sessionId !== this.#sessionId) {
          this.#sessionId = sessionId;
          batch.drafts.push({
            type: 'session.initialized',
            data: {
              generation: this.generation,
              sessionId,
              model: str(frame.model),
              cliVersion: str(frame.claude_code_version),
            },
          });
        }
        const start = this.tracker.onInit(userMessageUuids(frame));
        for (const runId of start.startedHostRuns)
          batch.drafts.push({ type: 'run.started', data: { runId } });
        if (start.cliRunId !== undefined) this.#createCliRun(start.cliRunId, 'cli', batch);
        return;
      }
      case 'task_started':
        return this.#onTaskStarted(frame, batch);
      case 'task_notification':
        return this.#onTaskNotification(frame, batch);
      case 'api_retry':
        batch.drafts.push(apiRetryDraft(frame, this.tracker.currentRunId ?? null));
        return;
      default:
        return;
    }
  }

  #createCliRun(runId: string, trigger: string, batch: Batch): void {
    batch.drafts.push({
      type: 'run.created',
      data: {
        runId,
        status: 'running',
        trigger,
        prompt: null,
        userMessageId: null,
        generation: this.generation,
      },
    });
    this.newContext(runId);
  }

  #onResult(frame: Frame, batch: Batch): void {
    const malformed = malformedResult(frame);
    if (malformed !== undefined) return this.#onMalformedResult(malformed, userMessageUuids(frame), batch);
    const origin = originOf(frame);
    const originKind = typeof origin?.kind === 'string' ? origin.kind : undefined;
    const { ended } = this.tracker.onResult(userMessageUuids(frame), originKind);
    const result = runResultOf(frame);
    for (const { runId, created } of ended) {
      if (created) this.#createCliRun(runId, originKind ?? 'cli', batch);
      const aborted = result.terminalReason?.startsWith('aborted') === true;
      const interrupted =
        result.isError && (this.interrupting.has(runId) || aborted || this.endReason !== undefined);
      const status = interrupted ? 'interrupted' : result.isError ? 'failed' : 'completed';
      const reason = interrupted
        ? (this.endReason ?? 'interrupted')
        : result.isError
          ? (result.terminalReason ?? result.subtype)
          : null;
      batch.drafts.push({ type: 'run.ended', data: { runId, status, reason, result, origin } });
      this.interrupting.delete(runId);
      const context = this.contexts.get(runId);
      if (context !== undefined) context.ended = true;
      this.#maybeRelease(runId, batch);
    }
  }

  /**
   * A result that cannot be read fails the turn it ends instead of leaving it running for ever (which
   * would queue every later message behind it), and says so.
   */
  #onMalformedResult(error: ProtocolError, uuids: readonly string[], batch: Batch): void {
    const { ended } = this.tracker.onMalformedResult(uuids);
    for (const { runId } of ended) {
      batch.drafts.push({
        type: 'run.ended',
        data: { runId, status: 'failed', reason: 'malformed_result', result: null, origin: null },
      });
      this.interrupting.delete(runId);
      const context = this.contexts.get(runId);
      if (context !== undefined) context.ended = true;
      this.#maybeRelease(runId, batch);
    }
    const runs =
      ended.length === 0 ? 'no run was waiting for it' : `run ${ended.map((e) => e.runId).join(', ')} failed`;
    this.#core.warn(
      new ProtocolError(`The CLI sent a malformed result (${error.message}); ${runs}`, undefined, {
        cause: error,
      }),
    );
  }

  #onTaskStarted(frame: Frame, batch: Batch): void {
    const taskId = str(frame.task_id);
    if (taskId === null || this.subagents.has(taskId)) return;
    const parentTask = str(frame.parent_task_id);
    const candidates = [
      parentTask === null ? undefined : this.subagents.get(parentTask)?.runId,
      this.tracker.ownerOfToolUse(str(frame.tool_use_id) ?? undefined),
      this.tracker.currentRunId,
      this.tracker.lastRunId,
    ];
    const runId = candidates.find((id) => id !== undefined && this.contexts.has(id));
    if (runId === undefined) return;
    this.subagents.set(taskId, { runId, running: true });
    this.contexts.get(runId)?.subagents.add(taskId);
    batch.drafts.push({
      type: 'subagent.started',
      data: {
        subagentId: taskId,
        runId,
        toolUseId: str(frame.tool_use_id),
        description: str(frame.description),
        taskType: str(frame.task_type),
        generation: this.generation,
      },
    });
  }

  #onTaskNotification(frame: Frame, batch: Batch): void {
    const taskId = str(frame.task_id);
    const subagent = taskId === null ? undefined : this.subagents.get(taskId);
    if (taskId === null || subagent === undefined || !subagent.running) return;
    subagent.running = false;
    const stopped = this.stoppingSubagents.delete(taskId);
    const reason = stopped ? 'subagent_stopped' : (this.endReason ?? 'subagent_ended');
    this.#cancelPending(batch, (a) => a.subagentId === taskId, reason);
    batch.drafts.push({
      type: 'subagent.ended',
      data: {
        subagentId: taskId,
        status: subagentStatusOf(frame.status),
        summary: str(frame.summary),
        reason: str(frame.reason) ?? (stopped ? 'subagent_stopped' : (this.endReason ?? null)),
      },
    });
    this.contexts.get(subagent.runId)?.subagents.delete(taskId);
    this.#maybeRelease(subagent.runId, batch);
    this.#wakeEndWaiters(taskId);
  }

  #wakeEndWaiters(taskId: string): void {
    const waiters = this.#endWaiters.get(taskId) ?? [];
    this.#endWaiters.delete(taskId);
    for (const wake of waiters) wake();
  }

  /** A run that ended and owns no running subagent lets go of its context. */
  #maybeRelease(runId: string, batch: Batch): void {
    const context = this.contexts.get(runId);
    if (context === undefined || !context.ended || context.subagents.size > 0) return;
    this.contexts.delete(runId);
    this.#cancelPending(batch, (a) => a.runId === runId, 'run_released');
    batch.drafts.push({ type: 'run.released', data: { runId } });
  }

  #cancelPending(
    batch: Batch,
    filter: (approval: { runId: string; subagentId: string | null }) => boolean,
    reason: string,
  ): void {
    for (const approval of this.#core.store.listApprovals({ threadId: this.threadId, status: 'pending' })) {
      if (!filter(approval) || batch.cancelled.has(approval.id)) continue;
      batch.cancelled.add(approval.id);
      batch.drafts.push({ type: 'approval.cancelled', data: { approvalId: approval.id, reason } });
    }
  }

  /** The run a conversation frame belongs to: its subagent's owner, its Agent call's run, or the turn's. */
  #runOf(frame: Frame): string | undefined {
    const agentId = str(frame.agent_id);
    const owner = agentId === null ? undefined : this.subagents.get(agentId)?.runId;
    return (
      owner ??
      this.tracker.ownerOfToolUse(str(frame.parent_tool_use_id) ?? undefined) ??
      this.tracker.currentRunId ??
      this.tracker.lastRunId
    );
  }
}
