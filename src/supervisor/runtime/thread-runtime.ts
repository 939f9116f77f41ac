// One thread at run time: at most one live CLI process, started by send() (resuming the CLI session when
// the thread has one), and the operations that act on it: interrupt, stop, stop a subagent. When the
// process is gone, for whatever reason, everything it could have answered is closed out in one commit.
import { randomUUID } from 'node:crypto';

import {
  ConflictError,
  ControlChannelClosedError,
  ErrorResultError,
  FrameTooLargeError,
  NotFoundError,
  ProcessExitError,
  TransportClosedError,
} from '../../protocol/errors.js';
import type { ApprovalDeadline, ApprovalRouting, RunRecord, ThreadRecord } from '../../store/records.js';
import { closeoutDrafts } from '../durable/closeout.js';
import type { SupervisorCore } from '../core.js';
import type { DetachedProcess } from '../durable/detached-cli.js';
import { hostUserMessage } from './input-queue.js';
import { LiveSession } from './live-session.js';
import { gatePermission, type GateHost } from '../approvals/permission-gate.js';
import { startsInPlanMode } from '../approvals/person-tools.js';
import { compiledPolicyFor, type CompiledPolicy } from '../../policy/policy.js';
import { deadlineFor } from '../approvals/deadlines.js';
import { routingFor } from '../approvals/routes.js';
import { effectiveRules } from '../approvals/grants.js';
import { IdleClock, idleVerdict, type IdleFacts, type IdleVerdict } from '../durable/idle-park.js';
import { idleDeadline, leaveDeadline, type LeftRunning } from '../durable/detached-idle.js';

/** How long stop() lets the CLI acknowledge the interrupt before it closes the process anyway. */
const STOP_INTERRUPT_GRACE_MS = 1000;
/** How long stopSubagent() waits for the CLI's report that the stopped task ended (it takes ms). */
const SUBAGENT_END_GRACE_MS = 5000;
/** How long detach() lets a CLI joined just now say which requests it still waits on, before judging it. */
const RECONCILE_BEFORE_DETACH_MS = 2000;
/** How CLI 2.1.328 says a resume found no transcript for the session id. */
const NO_CONVERSATION = 'No conversation found with session ID';

export class ThreadRuntime implements GateHost {
  readonly threadId: string;
  readonly #core: SupervisorCore;
  #live: LiveSession | undefined;
  #stopping: Promise<void> | undefined;
  /** The last process's end, until the log says it is gone (it may exit after the thread let go of it). */
  #lastFinished: Promise<void> = Promise.resolve();
  /** Parks the live CLI once it has had nothing to do for the idle period (idle-park.ts). */
  readonly #idle: IdleClock;
  /** Permission requests at the gate, not answered yet. */
  #requestsInFlight = 0;
  /** interrupt() and stop_task calls the CLI has not answered yet. */
  #operationsInFlight = 0;

  constructor(core: SupervisorCore, threadId: string) {
    this.#core = core;
    this.threadId = threadId;
    this.#idle = new IdleClock(core.options.idleParkMs, (idleMs) => this.#parkIfIdle(idleMs));
  }

  /** Something happened on the thread (an event committed, a frame read): its idle period starts again. */
  noteActivity(): void {
    if (this.#live !== undefined) this.#idle.touch();
  }

  /** What decides whether the live CLI may be parked now (idle-park.ts). */
  idleFacts(): IdleFacts {
    const live = this.#live;
    let runningSubagents = 0;
    for (const subagent of live?.subagents.values() ?? []) if (subagent.running) runningSubagents += 1;
    return {
      live: live !== undefined,
      ending: this.#stopping !== undefined || live?.endReason !== undefined || live?.detaching === true,
      reconciling: this.#core.reconciling.has(this.threadId),
      turnBusy: live?.tracker.busy ?? false,
      runningSubagents,
      cliBusy: live?.cliActivity.openReasons(0).reasons ?? [],
      requestsInFlight: this.#requestsInFlight,
      pendingApprovals: this.#core.store.listApprovals({ threadId: this.threadId, status: 'pending' }).length,
      operationsInFlight: this.#operationsInFlight,
    };
  }

  get live(): LiveSession | undefined {
    return this.#live;
  }

  isCurrent(session: LiveSession): boolean {
    return this.#live === session;
  }

  isStopping(): boolean {
    return this.#stopping !== undefined;
  }

  cwd(): string {
    return this.#thread().cwd;
  }

  /** The thread's mode and rules, with the rules granted for the thread and for its current CLI session. */
  policy(): CompiledPolicy {
    const thread = this.#thread();
    const osEnforced = this.#core.options.sandbox.enforced;
    return compiledPolicyFor(thread.mode, effectiveRules(thread), thread.cwd, osEnforced);
  }

  deadlineFor(
    toolName: string,
    input: Record<string, unknown>,
    { guarded }: { guarded: boolean },
  ): ApprovalDeadline | null {
    const thread = this.#thread();
    return deadlineFor(thread.deadlines, { toolName, input, cwd: thread.cwd, guarded });
  }

  routingFor(
    toolName: string,
    input: Record<string, unknown>,
    { guarded }: { guarded: boolean },
  ): ApprovalRouting {
    const { routes, routeClock } = this.#core.options;
    return routingFor(routes, { toolName, input, cwd: this.#thread().cwd, guarded }, routeClock.now());
  }

  /**
   * Pushes a user message into the live session, starting (or resuming) one if there is none. `retryOf`
   * names the run whose message this sends again after a failed resume; `runId` the id another host of a
   * fleet gave the run when it took the message (remote-commands.ts).
   */
  async send(text: string, retryOf?: string, runId: string = this.#core.newId()): Promise<RunRecord> {
    if (this.#stopping !== undefined) await this.#stopping;
    const live = this.#live ?? this.#start();
    const uuid = randomUUID();
    const status = live.tracker.busy ? 'queued' : 'running';
    this.#core.commit(this.threadId, [
      {
        type: 'run.created',
        data: {
          runId,
          status,
          trigger: retryOf === undefined ? 'human' : 'history_lost',
          prompt: text,
          userMessageId: uuid,
          generation: live.generation,
          ...(retryOf === undefined ? {} : { retryOf }),
        },
      },
      { type: 'message.user', data: { runId, uuid, text } },
    ]);
    live.tracker.hostSent(runId, uuid);
    live.newContext(runId);
    live.input.push(hostUserMessage(text, uuid));
    const run = this.#core.store.getRun(runId);
    if (run === undefined) throw new NotFoundError('run', runId, `Run ${runId} vanished`);
    return run;
  }

  /**
   * Interrupts the turn in progress. Without `perTaskStopAffordance` the CLI also stops every background
   * subagent, so the runs that own running subagents are interrupted too: all their pending approvals
   * are cancelled (`interrupted`) before the CLI is asked, and answered once it has acted.
   */
  async interrupt(): Promise<void> {
    const live = this.#live;
    if (live === undefined || this.#stopping !== undefined) return;
    const targets = new Set<string>();
    const current = live.tracker.currentRunId;
    if (current !== undefined) targets.add(current);
    for (const [runId, context] of live.contexts) {
      const status = this.#core.store.getRun(runId)?.status;
      if (status === 'running' || (context.ended && context.subagents.size > 0)) targets.add(runId);
    }
    for (const runId of targets) live.interrupting.add(runId);
    const held = this.#cancelPending((a) => targets.has(a.runId), 'interrupted', true);
    this.#operationsInFlight += 1;
    try {
      await live.query.interrupt();
    } catch (error) {
      // The process ended meanwhile: there is nothing left to interrupt, and its end closes the runs out.
      if (!cliEnded(error)) throw error;
    } finally {
      this.#operationsInFlight -= 1;
      this.noteActivity();
      this.#core.waiters.release(held);
    }
  }

  /**
   * Stops one background subagent (the CLI's stop_task); its pending approvals are cancelled first.
   * Resolves once its end is recorded: the CLI reports the stopped task just before it answers stop_task,
   * but the report is read on another path than the answer.
   */
  async stopSubagent(subagentId: string): Promise<void> {
    const live = this.#live;
    if (live === undefined || live.subagents.get(subagentId)?.running !== true)
      throw new ConflictError(`Subagent ${subagentId} is not running in the thread's live CLI process`);
    live.stoppingSubagents.add(subagentId);
    const held = this.#cancelPending((a) => a.subagentId === subagentId, 'subagent_stopped', true);
    this.#operationsInFlight += 1;
    try {
      await live.query.stopTask(subagentId);
      await settleWithin(live.whenSubagentEnded(subagentId), SUBAGENT_END_GRACE_MS);
    } catch (error) {
      // The process ended meanwhile, and its subagents with it (recorded as the process's end is).
      if (!cliEnded(error)) throw error;
    } finally {
      this.#operationsInFlight -= 1;
      this.noteActivity();
      this.#core.waiters.release(held);
    }
  }

  /**
   * Ends the live CLI process: pending approvals are cancelled with `reason`, running runs interrupted,
   * subagents stopped. Resolves when the process is gone from the thread. A stop already under way is
   * shared; with no live process there is nothing to do.
   */
  stop(reason = 'thread_stopped'): Promise<void> {
    const live = this.#live;
    if (this.#stopping !== undefined) {
      // A stop asked for while the CLI is being parked: the thread ends stopped, not parked.
      if (live?.parkedAfterMs !== undefined) live.parkedAfterMs = undefined;
      if (live?.endReason === 'parked') live.endReason = reason;
      return this.#stopping;
    }
    if (live === undefined) return this.#lastFinished;
    live.endReason = reason;
    const stopping = (async () => {
      // The process ends whatever the store does: a stop it cannot take now is held (record-backlog.ts),
      // and approvals it cannot cancel now are answered as the process's requests end with it.
      this.#core.record(this.threadId, [
        { type: 'session.stopping', data: { generation: live.generation, reason } },
      ]);
      try {
        this.#cancelPending(() => true, reason, false);
      } catch (error) {
        this.#core.warnFailure(error, `Could not cancel the pending approvals of thread ${this.threadId}`);
      }
      // Interrupt before closing: on a bare stdin EOF the CLI carries on with the turn (another model
      // call, maybe tools) until the close grace runs out; an interrupted CLI is idle and exits at once.
      await settleWithin(live.query.interrupt(), STOP_INTERRUPT_GRACE_MS);
      live.input.end();
      live.query.close();
      await live.finished;
    })();
    this.#stopping = stopping.finally(() => {
      this.#stopping = undefined;
    });
    return this.#stopping;
  }

  /**
   * The idle clock's question: parks the CLI (see park()) if nothing is going on; false when something
   * is, so the clock asks again a period later.
   */
  #parkIfIdle(idleMs: number): boolean {
    if (!idleVerdict(this.idleFacts()).idle) return false;
    this.park(idleMs).catch((error: unknown) =>
      this.#core.warnFailure(error, `Could not park the CLI of thread ${this.threadId}`),
    );
    return true;
  }

  /**
   * Stops the idle CLI so that the next send resumes its session in a new process: `session.stopping`
   * and `session.ended` with the reason `parked`, then `thread.parked`, committed with the session's
   * end. A send meanwhile waits for the park to finish, then resumes. Nothing is pending (the caller
   * checked), so there is nothing to cancel and no turn to interrupt: the input ends and the CLI is closed
   * (a detached one stopped and its spool removed, as stop() does).
   */
  park(idleMs: number): Promise<void> {
    const live = this.#live;
    if (this.#stopping !== undefined) return this.#stopping;
    if (live === undefined) return this.#lastFinished;
    live.endReason = 'parked';
    live.parkedAfterMs = idleMs;
    const parking = (async () => {
      this.#core.commit(this.threadId, [
        { type: 'session.stopping', data: { generation: live.generation, reason: 'parked' } },
      ]);
      live.input.end();
      live.query.close();
      await live.finished;
    })();
    this.#stopping = parking.finally(() => {
      this.#stopping = undefined;
    });
    return this.#stopping;
  }

  /**
   * Takes over the thread's detached CLI an earlier host left running: same generation, state rebuilt from
   * the store, the spool read on from the committed offset, the pending requests asked for again.
   */
  attach(cli: DetachedProcess): void {
    if (this.#live !== undefined) throw new ConflictError(`Thread ${this.threadId} already has a live CLI`);
    this.#core.commit(this.threadId, [
      {
        type: 'session.reattached',
        data: { generation: cli.generation, pid: cli.pid, spoolOffset: cli.spoolOffset },
      },
    ]);
    this.#startSession(cli.generation, 'attach_failed', cli);
  }

  /**
   * Lets go of a detached CLI and leaves it running for the next host: nothing is closed out, approvals
   * stay pending, runs and subagents go on. An idle one gets a deadline (`detachedIdleMs`) after which its
   * watchdog ends it if no host took it back (detached-idle.ts). A CLI that cannot be left (piped) is
   * stopped instead. Returns what was left running, if anything.
   */
  async detach(): Promise<LeftRunning | undefined> {
    const live = this.#live;
    if (this.#stopping !== undefined) return this.#stopping.then(() => undefined);
    if (live === undefined) return this.#lastFinished.then(() => undefined);
    if (!live.detachable) return this.stop('host_closed').then(() => undefined);
    // A CLI joined just now says first which requests it still waits on (bounded: it may never answer).
    const reconciling = this.#core.reconciling.get(this.threadId);
    if (reconciling !== undefined) await settleWithin(reconciling, RECONCILE_BEFORE_DETACH_MS);
    if (this.#live !== live || this.#stopping !== undefined) return this.detach();
    const verdict = idleVerdict(this.idleFacts());
    const { detachedIdleMs } = this.#core.options;
    const spoolDir = live.spoolDir;
    const idleUntil = spoolDir === undefined ? null : idleDeadline(verdict.idle, detachedIdleMs);
    const pid = live.detachedPid ?? 0;
    // Left running whatever the store does: the process stays on record, and the next host joins it.
    this.#core.record(this.threadId, [
      {
        type: 'session.detached',
        data: {
          generation: live.generation,
          pid,
          spoolOffset: live.spoolOffset,
          ...(idleUntil === null ? {} : { idleUntil }),
        },
      },
    ]);
    live.detaching = true;
    try {
      live.query.detach?.();
    } catch (error) {
      // The query cannot let go (its CLI is not running yet): end it as before.
      if (!(error instanceof TypeError)) throw error;
      live.detaching = false;
      return this.stop('host_closed').then(() => undefined);
    }
    await live.finished;
    // Only once this host reads and writes nothing more of it: the watchdog may end it from then on.
    const left = leftRunning(this.threadId, pid, verdict);
    if (idleUntil === null || spoolDir === undefined) return left;
    try {
      leaveDeadline(spoolDir, idleUntil, detachedIdleMs);
      return { ...left, idleUntil };
    } catch (error) {
      this.#core.warnFailure(error, `Could not leave the idle deadline of thread ${this.threadId}'s CLI`);
      return left;
    }
  }

  #start(): LiveSession {
    const thread = this.#thread();
    const generation = thread.generation + 1;
    this.#core.commit(this.threadId, [
      { type: 'session.started', data: { generation, resume: thread.sessionId } },
    ]);
    return this.#startSession(generation, 'start_failed');
  }

  #startSession(generation: number, failure: string, attach?: DetachedProcess): LiveSession {
    const thread = this.#thread();
    let session: LiveSession;
    try {
      session = new LiveSession(this.#core, {
        threadId: this.threadId,
        generation,
        cwd: thread.cwd,
        model: thread.model,
        resume: thread.sessionId,
        plan: startsInPlanMode(this.#core.store, this.threadId),
        canUseTool: (owner) => async (toolName, input, context) => {
          // A request that reached the gate keeps the CLI from being parked until it is answered.
          this.#requestsInFlight += 1;
          this.noteActivity();
          try {
            return await gatePermission(this.#core, this, owner, toolName, input, context);
          } finally {
            this.#requestsInFlight -= 1;
            this.noteActivity();
          }
        },
        onEnded: (ended, error) => this.#onEnded(ended, error),
        onActivity: () => this.noteActivity(),
        ...(attach === undefined ? {} : { attach }),
      });
    } catch (error) {
      const drafts = closeoutDrafts(this.#core.store, this.threadId, {
        reason: failure,
        approvals: 'cancelled',
        subagents: 'lost',
        error: error instanceof Error ? error.message : String(error),
      });
      this.#core.record(this.threadId, drafts);
      throw error;
    }
    this.#live = session;
    this.#lastFinished = session.finished;
    this.#idle.touch();
    return session;
  }

  /** The process is gone (we stopped it, it died, or close()): close out everything it could answer. */
  #onEnded(session: LiveSession, error: Error | undefined): void {
    if (this.#live !== session) return;
    this.#live = undefined;
    this.#idle.stop();
    // Left running for the next host: everything it could answer still can be, by that host.
    if (session.detaching) return;
    const deliberate = session.endReason !== undefined;
    const lostSession = deliberate ? undefined : failedResume(session, error);
    const lost = lostSession === undefined ? [] : this.#unansweredMessages(session.generation);
    const drafts = closeoutDrafts(this.#core.store, this.threadId, {
      reason: session.endReason ?? 'process_exited',
      approvals: 'cancelled',
      subagents: deliberate ? 'stopped' : 'lost',
      error: error?.message ?? null,
    });
    if (lostSession !== undefined)
      drafts.push({
        type: 'session.resume_failed',
        data: { generation: session.generation, ...lostSession },
      });
    if (session.endReason === 'parked' && session.parkedAfterMs !== undefined)
      drafts.push({
        type: 'thread.parked',
        data: { generation: session.generation, reason: 'idle', idleMs: session.parkedAfterMs },
      });
    this.#core.record(this.threadId, drafts);
    if (lost.length > 0) void this.#sendAgain(lost);
  }

  /** The messages a process took and never passed to the model, oldest first, with their runs. */
  #unansweredMessages(generation: number): { runId: string; text: string }[] {
    return this.#core.store
      .listRuns(this.threadId)
      .flatMap((run) =>
        run.generation === generation && run.prompt !== null ? [{ runId: run.id, text: run.prompt }] : [],
      );
  }

  /**
   * After a failed resume none of these messages reached the model, so they go to a new session (the
   * thread no longer has a session id to resume). Reported through onWarning if that fails too.
   */
  async #sendAgain(messages: readonly { runId: string; text: string }[]): Promise<void> {
    try {
      for (const { runId, text } of messages) await this.send(text, runId);
    } catch (error) {
      this.#core.warnFailure(error, `Could not send the messages of thread ${this.threadId} again`);
    }
  }

  /** Cancels matching pending approvals in one commit; with `hold`, their deny waits for release(). */
  #cancelPending(
    filter: (approval: { runId: string; subagentId: string | null }) => boolean,
    reason: string,
    hold: boolean,
  ): string[] {
    const pending = this.#core.store
      .listApprovals({ threadId: this.threadId, status: 'pending' })
      .filter(filter)
      .map((approval) => approval.id);
    if (hold) this.#core.waiters.hold(pending);
    this.#core.commit(
      this.threadId,
      pending.map((approvalId) => ({ type: 'approval.cancelled' as const, data: { approvalId, reason } })),
    );
    return pending;
  }

  #thread(): ThreadRecord {
    const thread = this.#core.store.getThread(this.threadId);
    if (thread === undefined)
      throw new NotFoundError('thread', this.threadId, `Unknown thread ${JSON.stringify(this.threadId)}`);
    return thread;
  }
}

/**
 * The session a process was to resume and the CLI's reason, when it ended before it initialized because
 * the session could not be found; undefined for every other ending.
 */
function failedResume(
  session: LiveSession,
  error: Error | undefined,
): { sessionId: string; error: string } | undefined {
  if (session.resume === null || session.initialized || !(error instanceof ErrorResultError))
    return undefined;
  const reason = error.errors.find((text) => text.startsWith(NO_CONVERSATION));
  return reason === undefined ? undefined : { sessionId: session.resume, error: reason };
}

/** What close() reports of a CLI it let go of: no deadline yet, and why not when it was busy. */
function leftRunning(threadId: string, pid: number, verdict: IdleVerdict): LeftRunning {
  return { threadId, pid, idleUntil: null, ...(verdict.idle ? {} : { busy: verdict.because }) };
}

/** Waits for `promise` to settle, or `ms` at most; never rejects. The timer does not keep the host alive. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      promise.then(
        () => undefined,
        () => undefined,
      ),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms).unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A control request failed because the CLI's process or channel ended under it (the channel rejects what
 * is in flight with the cause that ended the query), not because the CLI refused it.
 */
function cliEnded(error: unknown): boolean {
  return (
    error instanceof ControlChannelClosedError ||
    error instanceof ProcessExitError ||
    error instanceof TransportClosedError ||
    error instanceof FrameTooLargeError
  );
}
