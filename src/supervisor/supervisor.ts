// The Supervisor: threads → runs → subagents → approvals over the CLI, with policies, an append-only
// event log and projections in SQLite (or a fleet's PostgreSQL). The public surface is here, and only
// that: runtime/ runs the threads (one live CLI each) and their commands, approvals/ decides, durable/
// recovers what an earlier host left and lets go at close, fleet/ shares the threads between hosts.
import { Escalations } from './approvals/escalations.js';
import { REAL_ROUTE_TIMERS } from './approvals/route-timers.js';
import { validateRoutes } from './approvals/routes.js';
import { SandboxUnavailableError, StoreError } from '../protocol/errors.js';
import { query as sdkQuery } from '../session/query.js';
import { verifyAuditRows, type AuditRow, type VerifyResult } from '../store/audit-chain.js';
import { auditRows, logFactsOf, type AuditQuery } from '../store/audit-log.js';
import type {
  ApprovalRecord,
  ApprovalStatus,
  RunRecord,
  ThreadMode,
  ThreadRecord,
} from '../store/records.js';
import { describeFix, securePrivateDir } from '../store/private-dir.js';
import { isPostgresUrl } from '../store/store-target.js';
import type { HostRecord } from '../store/host-registry.js';
import type { EventText } from '../store/event-types.js';
import type { BatchPreview, BatchResult, BatchSelection } from './approvals/batch.js';
import { Decider } from './approvals/decider.js';
import {
  simulateOverLog,
  validateSimulationRequest,
  type SimulationRequest,
} from './approvals/simulation.js';
import type { Simulation } from '../policy/simulate.js';
import { SupervisorCore, attempt } from './core.js';
import { reattach, recoverLeftovers, type HostRestart, type Recovered } from './durable/host-restart.js';
import { shutDown } from './durable/shutdown.js';
import { followLog, followLogTexts, readPage, threadEvents } from './event-stream.js';
import type { HookAnswer, HookWait } from './external/external-gate.js';
import { ExternalSessions } from './external/external-sessions.js';
import { CodexThreads } from './agents/codex-threads.js';
import { codexLaunch } from './agents/codex-launch.js';
import type { FleetMembership, ThreadHost } from './fleet/fleet.js';
import { openHostStore } from './fleet/host-store.js';
import { RemoteCommands } from './fleet/remote-commands.js';
import { ThreadCommands } from './runtime/thread-commands.js';
import { probeSandbox } from './runtime/sandbox-probe.js';
import { defaultSandboxMode, openSandboxState, type SandboxStatus } from './runtime/sandbox-state.js';
import { Threads } from './runtime/threads.js';
import { suggestionFor, type ApprovalSuggestion } from './approvals/suggestion.js';
import { buildTimeline, type TimelineItem } from './timeline.js';
import type {
  CloseOptions,
  CloseResult,
  Decision,
  EventsOptions,
  NewThread,
  SupervisorEvent,
  SupervisorOptions,
  ThreadView,
} from './types.js';
import { validateOpenOptions } from './validate.js';

export { DATABASE_FILE } from '../store/open-store.js';

export class Supervisor {
  readonly #core: SupervisorCore;
  readonly #threads: Threads;
  readonly #decider: Decider;
  readonly #commands: ThreadCommands;
  readonly #external: ExternalSessions;
  readonly #codex: CodexThreads;
  /**
   * What open() found and closed out from a previous host that did not close cleanly, how many of its
   * CLI processes were still running and were stopped, and how many detached ones were re-attached.
   */
  readonly recovered: Recovered;
  /**
   * Settles once every CLI re-attached by open() has said which requests it still waits on: from then on
   * their approvals are answerable (decide() waits for this by itself) and the others are cancelled
   * (`not_pending_after_restart`). Never rejects.
   */
  readonly reattached: Promise<void>;
  #closed: Promise<CloseResult> | undefined;

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
    const { idleParkMs, detachedIdleMs, suggestRulesAfter, twoPerson } = validateOpenOptions(options);
    return attempt(async () => {
      // Refused before anything is opened: `required` starts no CLI without the sandbox.
      const sandbox = openSandboxState(options.sandbox ?? defaultSandboxMode(), () =>
        probeSandbox(env ?? process.env),
      );
      // Private to this user (0700/0600); what had to be tightened is said, a foreign owner refused.
      for (const fix of securePrivateDir(dataDir)) onWarning?.(new StoreError(describeFix(fix)));
      // One host of a fleet: it recovers, re-attaches and runs only the threads it owns (fleet.ts).
      const { store, fleet } = openHostStore(storeUrl ?? dataDir, host);
      const owned = (threadId: string) => fleet?.owns(threadId) ?? true;
      try {
        const restart = await recoverLeftovers(store, { dataDir, detached, owned });
        const core = new SupervisorCore(store, {
          dataDir,
          detached,
          idleParkMs,
          detachedIdleMs,
          suggestRulesAfter,
          claudePath,
          env,
          onWarning,
          query: query ?? sdkQuery,
          // On PostgreSQL the CLIs' transcripts are mirrored there: any host can resume a conversation.
          sessionStore: store.hosts()?.transcriptStore(),
          sandbox,
          routes: validateRoutes(options.routes),
          routeClock: options.routeClock ?? REAL_ROUTE_TIMERS,
          twoPerson,
        });
        const { enforced, reason } = sandbox.status;
        if (sandbox.requested && !enforced) core.warn(new SandboxUnavailableError(reason ?? 'unknown'));
        const supervisor = new Supervisor(core, restart, fleet, options.codex);
        // A deadline that passed while no host ran applies now (decide() waits for re-attached CLIs).
        supervisor.#decider.restoreDeadlines(
          store.listApprovals({ status: 'pending' }).filter((approval) => owned(approval.threadId)),
        );
        // A route's step whose time passed while no host ran is taken now.
        supervisor.#escalations.restore(
          store.listApprovals({ status: 'pending' }).filter((approval) => owned(approval.threadId)),
        );
        // An external session's approval waits a while for its hook to ask again, then is closed out.
        supervisor.#external.restore();
        fleet?.follow(core, () => supervisor.#threads.liveClis());
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

  /** The steps of the routes of pending approvals: reminders and escalations (approvals/escalations.ts). */
  readonly #escalations: Escalations;

  private constructor(
    core: SupervisorCore,
    restart: HostRestart,
    fleet: FleetMembership | undefined,
    codex: SupervisorOptions['codex'],
  ) {
    this.#core = core;
    this.#fleet = fleet;
    this.#remote =
      fleet === undefined
        ? undefined
        : new RemoteCommands(core, fleet, (request) => this.#commands.runRequested(request));
    this.#threads = new Threads(core);
    this.#decider = new Decider(core, this.#threads, fleet);
    this.#codex = new CodexThreads(core, codexLaunch(core.options.env, codex));
    this.#commands = new ThreadCommands(core, this.#threads, this.#decider, fleet, this.#remote, this.#codex);
    this.#external = new ExternalSessions(core);
    this.recovered = restart.recovered;
    this.#escalations = new Escalations(core);
    core.committedListeners.push((events) => this.#decider.onCommitted(events));
    core.committedListeners.push((events) => this.#escalations.onCommitted(events));
    core.committedListeners.push((events) => this.#remote?.onCommitted(events));
    core.committedListeners.push((events) => this.#threads.noteActivity(events));
    this.reattached = reattach(core, this.#threads, restart.attachable, this.#codex);
  }

  /**
   * Whether this host's CLIs run their Bash commands with the protected paths unwritable by the operating
   * system (docs/security.md), and why not.
   */
  get sandbox(): SandboxStatus {
    return this.#core.options.sandbox.status;
  }

  createThread(input: NewThread): Promise<ThreadRecord> {
    return this.#core.acknowledged(() => this.#commands.createThread(input));
  }

  /** Sends a user message; starts (or resumes) the thread's CLI session if none is live. */
  send(threadId: string, text: string): Promise<RunRecord> {
    return this.#core.acknowledged(() => this.#commands.send(threadId, text));
  }

  /**
   * What a Claude Code hook reports of a session Warden did not start (`warden hook run`), from the hook
   * token `reporter`: the session becomes a thread of kind `external`. A PermissionRequest resolves with
   * the decision (or the policy's verdict), or null once the hook stops waiting (`wait`): the CLI then
   * asks in its own terminal. Other events resolve with null once recorded.
   */
  reportHook(event: unknown, payload: unknown, reporter: string, wait: HookWait): Promise<HookAnswer> {
    return attempt(() => this.#external.report(event, payload, reporter, wait));
  }

  /** Names the thread (one line; invisible characters become markers). */
  rename(threadId: string, title: string): Promise<ThreadRecord> {
    return this.#core.acknowledged(() => this.#commands.rename(threadId, title));
  }

  /**
   * Answers a pending approval. Compare-and-set: a settled approval gives a ConflictError. Right after a
   * re-attach, waits until the CLI has said whether it still waits on the request.
   */
  decide(approvalId: string, decision: Decision): Promise<ApprovalRecord> {
    return this.#core.acknowledged(() => this.#decider.decide(approvalId, decision));
  }

  /** Interrupts the turn in progress; for a thread another live host runs, that host does once it hears of it. */
  interrupt(threadId: string): Promise<void> {
    return this.#core.acknowledged(() => this.#commands.interrupt(threadId));
  }

  stop(threadId: string): Promise<void> {
    return this.#core.acknowledged(() => this.#commands.stop(threadId));
  }

  /** Stops one running background subagent; its pending approvals become `cancelled` (`subagent_stopped`). */
  stopSubagent(subagentId: string): Promise<void> {
    return this.#core.acknowledged(() => this.#commands.stopSubagent(subagentId));
  }

  /** Changes the thread's mode; pending approvals the new policy decides by itself are settled now. */
  setMode(threadId: string, mode: ThreadMode): Promise<ThreadRecord> {
    return this.#core.acknowledged(() => this.#commands.setMode(threadId, mode));
  }

  /**
   * The host that would run a command for the thread, when it is another live host of the fleet (the
   * command is then recorded here and run there); undefined when this host runs it.
   */
  commandHost(threadId: string): string | undefined {
    return this.#commands.commandHost(threadId);
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
    this.#core.checkOpen();
    return this.#threads.isBusy(threadId);
  }

  /** The hosts of the fleet and their leases (empty for a store of one host). */
  listHosts(): HostRecord[] {
    this.#core.checkOpen();
    return this.#fleet?.listHosts() ?? [];
  }

  listThreads(): ThreadRecord[] {
    this.#core.checkOpen();
    return this.#core.store.listThreads().map((thread) => this.#threads.titled(thread));
  }

  getThread(threadId: string): ThreadView {
    this.#core.checkOpen();
    return this.#threads.view(threadId);
  }

  getApproval(approvalId: string): ApprovalRecord {
    this.#core.checkOpen();
    return this.#threads.approval(approvalId);
  }

  listApprovals(filter: { status?: ApprovalStatus; threadId?: string } = {}): ApprovalRecord[] {
    this.#core.checkOpen();
    return this.#core.store.listApprovals(filter);
  }

  /** The conversation as a UI shows it, rebuilt from the thread's events. */
  timeline(threadId: string): TimelineItem[] {
    this.#core.checkOpen();
    this.#threads.thread(threadId);
    return buildTimeline(threadEvents(this.#core.store, threadId));
  }

  /** One page of the log after the global seq `after` (default 0), at most `limit` (default 500); never waits. */
  readEvents(query: { after?: number; threadId?: string; limit?: number } = {}): SupervisorEvent[] {
    this.#core.checkOpen();
    return readPage(this.#core.store, () => this.#core.visibleThrough, query);
  }

  /** The global seq of the last event in the log (0 when empty). */
  lastSeq(): number {
    this.#core.checkOpen();
    return Math.min(this.#core.store.lastSeq(), this.#core.visibleThrough);
  }

  /**
   * Resolves once every change committed so far is on disk and shown to readers (events(), readEvents())
   * and the CLI requests it answers have their answers: a quiet point to read the log as a whole against
   * the current state. Rejects with a StoreError when the store could not make it durable.
   */
  durable(): Promise<void> {
    this.#core.checkOpen();
    return this.#core.durable();
  }

  /** One page of the audit trail: records after seq `after`, at or after the time `since` (audit-chain.ts). */
  readAudit(query: AuditQuery = {}): AuditRow[] {
    this.#core.checkOpen();
    return this.#core.store.readAudit(query);
  }

  /**
   * Checks the audit trail's chain from its first record, and against the log: every decision the log
   * holds after the genesis record has its record (audit-chain.ts). `covers` says which events it checked.
   */
  verifyAudit(): VerifyResult {
    this.#core.checkOpen();
    const { store } = this.#core;
    return verifyAuditRows(auditRows(store), logFactsOf(store));
  }

  /**
   * What a proposed policy change would have decided for the permission requests in the log, beside what
   * was decided then (approvals/simulation.ts; the same policy function the live requests go through).
   * A malformed request is a ValidationError naming the field.
   */
  simulatePolicy(request: SimulationRequest): Simulation {
    this.#core.checkOpen();
    const checked = validateSimulationRequest(request);
    return simulateOverLog(this.#core.store, checked, this.#core.options.sandbox.enforced);
  }

  /** Replays the log after `since` (a global seq), then follows it live, until close() or the signal. */
  events(options: EventsOptions = {}): AsyncIterable<SupervisorEvent> {
    this.#core.checkOpen();
    const { store, notifier } = this.#core;
    return followLog(store, notifier, () => this.#core.visibleThrough, options);
  }

  /**
   * The same as events(), as JSON texts (JSON.stringify of each event), a page at a time: for a reader
   * that passes the events on as they are, such as the server's live feed.
   */
  eventTexts(options: EventsOptions = {}): AsyncIterable<readonly EventText[]> {
    this.#core.checkOpen();
    const { store, notifier } = this.#core;
    return followLogTexts(store, notifier, () => this.#core.visibleThrough, options);
  }

  /**
   * Lets go of every live CLI, ends iterators, closes the store. Detached CLIs are left running (the next
   * open() re-attaches; their approvals stay pending, their runs go on); with `stopAgents`, and for CLIs
   * that are not detached, the CLI is stopped (runs interrupted, approvals cancelled: `host_closed`).
   *
   * Resolves with what it left running: `leftRunning`, one entry per detached CLI, `{ threadId, pid,
   * idleUntil, busy? }`. An idle one ends by itself at `idleUntil` (epoch ms, `detachedIdleMs` from now)
   * unless a host re-attaches it first, and its thread is then parked (the next send resumes it); one
   * that was busy (`busy` says why: a turn, a subagent, an approval waiting for a person) has `idleUntil`
   * null and waits for the next host. Any of them ends within seconds once the data directory is removed.
   * Empty with `stopAgents`. Calling close() again returns the same result.
   */
  close(options: CloseOptions = {}): Promise<CloseResult> {
    if (typeof options !== 'object' || options === null)
      return Promise.reject(new TypeError('options must be an object'));
    const { stopAgents = false } = options;
    if (typeof stopAgents !== 'boolean')
      return Promise.reject(new TypeError('options.stopAgents must be a boolean'));
    if (this.#closed === undefined) {
      const stopDeadlines = (): void => {
        this.#decider.stopDeadlines();
        this.#escalations.clear();
        this.#external.stop();
      };
      const runtimes = [...this.#codex.runtimes(), ...this.#threads.runtimes()];
      this.#closed = shutDown(this.#core, runtimes, { stopAgents, stopDeadlines });
      this.#core.markClosed();
    }
    return this.#closed;
  }

  /** Removes a rule granted for the thread or its CLI session; the policy stops applying it at once. */
  /**
   * The rule a pending approval's card offers: the narrowest that covers it and enough past approvals of
   * its thread, and nothing the thread's history shows denied, with what it would have done in the thread
   * so far (approvals/suggestion.ts). Null when there is none, or the approval is no longer pending.
   */
  suggestRule(approvalId: string): ApprovalSuggestion | null {
    this.#core.checkOpen();
    this.#threads.approval(approvalId);
    return suggestionFor(
      this.#core.store,
      approvalId,
      this.#core.options.sandbox.enforced,
      this.#core.options.suggestRulesAfter,
    );
  }

  /** Adds allow rules to the thread (scope thread, from no approval): its rules panel, a suggestion saved. */
  grantRules(threadId: string, rules: readonly string[]): Promise<ThreadRecord> {
    return this.#core.acknowledged(() => this.#commands.grantRules(threadId, rules));
  }

  revokeRule(threadId: string, rule: string, scope: 'thread' | 'session' = 'thread'): Promise<ThreadRecord> {
    return this.#core.acknowledged(() => this.#commands.revokeRule(threadId, rule, scope));
  }

  /** Sets when the thread's new approvals are answered by themselves; pending ones keep their deadline. */
  setDeadlines(threadId: string, deadlines: NewThread['deadlines']): Promise<ThreadRecord> {
    return this.#core.acknowledged(() => this.#commands.setDeadlines(threadId, deadlines));
  }

  /**
   * The pending approvals a batch would cover: a thread's, a subagent's, or those a rule covers (for an
   * allow, as an allow rule would: every part of a command). Apply with decideBatch() on these ids. An
   * allow leaves out protected and CLI-sensitive writes (`leftOut`, with the reason): each is a person's
   * to allow on its own card.
   */
  previewBatch(select: BatchSelection, behavior: 'allow' | 'deny' = 'allow'): BatchPreview {
    return this.#decider.previewBatch(select, behavior);
  }

  /**
   * Answers each of `approvalIds` (the ones a preview listed) with one decision, each compare-and-set on
   * its own: those settled meanwhile are reported, not answered again; an allow answers no protected or
   * CLI-sensitive write (`leftOut`), whatever ids it is given.
   */
  decideBatch(approvalIds: readonly string[], decision: Decision): Promise<BatchResult> {
    return this.#core.acknowledged(() => this.#decider.decideBatch(approvalIds, decision));
  }
}
