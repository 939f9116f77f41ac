// @ts-check
// What the page knows: threads, runs, subagents and approvals, folded from REST snapshots and live
// events. Snapshots and replayed events can arrive in any order (a reconnect replays what a snapshot
// already showed), so every merge only moves a record forward — a settled approval never turns pending
// again, a finished run never runs again — and applying the same event twice changes nothing.

/** @import { ApprovalItem, GrantedRule, RunRecord, StoredEvent, SubagentRecord, ThreadListItem, ThreadRecord, ThreadView, HostRecord, ThreadHost } from './types.js' */

const APPROVAL_RANK = { pending: 0, allowed: 1, denied: 1, cancelled: 1, expired: 1 };
const RUN_RANK = { queued: 0, running: 1, completed: 2, failed: 2, interrupted: 2 };
const SUBAGENT_RANK = { running: 0, completed: 1, failed: 1, stopped: 1, lost: 1 };

/**
 * @template T
 * @param {Map<string, T>} map
 * @param {string} id
 * @param {T} incoming
 * @param {(existing: T, incoming: T) => boolean} newer whether `incoming` may replace `existing`
 */
function merge(map, id, incoming, newer) {
  const existing = map.get(id);
  if (existing === undefined) map.set(id, incoming);
  else if (newer(existing, incoming)) map.set(id, { ...existing, ...incoming });
}

export class State {
  /** @type {Map<string, ThreadRecord & Partial<ThreadListItem>>} */ threads = new Map();
  /** @type {Map<string, RunRecord>} */ runs = new Map();
  /** @type {Map<string, SubagentRecord>} */ subagents = new Map();
  /** @type {Map<string, ApprovalItem>} */ approvals = new Map();
  /** Approvals this page has answered and is waiting to hear back about: hidden from the inbox. */
  /** @type {Set<string>} */ deciding = new Set();
  /** The event logs of the threads a view keeps open, keyed by thread, each sorted by seq. */
  /** @type {Map<string, StoredEvent[]>} */ logs = new Map();
  /** The highest global seq applied: where a reconnect resumes. */
  lastSeq = 0;
  /** Who this page is signed in as (`GET /api/session`); undefined until known. */
  /** @type {{ decider: string, role: string | null } | undefined} */ me = undefined;
  /** In a fleet, each host's lease as last polled (a lease that runs out is no event of the log). */
  /** @type {Map<string, HostRecord>} */ hosts = new Map();
  /** @type {Set<() => void>} */ #listeners = new Set();
  #scheduled = false;

  /** @param {() => void} listener called once per batch of changes */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Coalesces a burst of changes (a replay can bring hundreds of events) into one render. */
  changed() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      for (const listener of this.#listeners) listener();
    });
  }

  /** @param {ThreadRecord & Partial<ThreadListItem>} thread */
  addThread(thread) {
    merge(this.threads, thread.id, thread, (a, b) => b.lastThreadSeq >= a.lastThreadSeq);
    this.changed();
  }

  /** @param {ThreadView} view */
  addThreadView(view) {
    // The thread's host comes beside the record (a thread created after the page loaded had none yet).
    this.addThread(view.host ? { ...view.thread, host: view.host } : view.thread);
    for (const run of view.runs) this.#addRun(run);
    for (const subagent of view.subagents) this.#addSubagent(subagent);
    for (const approval of view.approvals) this.addApproval(approval);
    this.changed();
  }

  /** @param {HostRecord[]} hosts */
  setHosts(hosts) {
    const changed = hosts.some((host) => this.hosts.get(host.name)?.live !== host.live);
    this.hosts = new Map(hosts.map((host) => [host.name, host]));
    if (changed) this.changed();
  }

  /**
   * The host that runs the thread, with its lease as last polled; undefined outside a fleet.
   * @param {string} threadId
   * @param {ThreadHost | null | undefined} known what the approval's own snapshot said
   * @returns {ThreadHost | undefined}
   */
  hostOf(threadId, known) {
    const name = this.threads.get(threadId)?.host?.name ?? known?.name;
    if (name === undefined) return undefined;
    const polled = this.hosts.get(name);
    if (polled === undefined) return known ?? undefined;
    return { name, reachable: polled.live, lastSeen: polled.heartbeatAt };
  }

  /** @param {ApprovalItem} approval */
  addApproval(approval) {
    merge(
      this.approvals,
      approval.id,
      approval,
      (a, b) => APPROVAL_RANK[b.status] >= APPROVAL_RANK[a.status],
    );
    this.changed();
  }

  /** @param {RunRecord} run */
  #addRun(run) {
    merge(this.runs, run.id, run, (a, b) => RUN_RANK[b.status] >= RUN_RANK[a.status]);
  }

  /** @param {SubagentRecord} subagent */
  #addSubagent(subagent) {
    merge(
      this.subagents,
      subagent.id,
      subagent,
      (a, b) => SUBAGENT_RANK[b.status] >= SUBAGENT_RANK[a.status],
    );
  }

  /** @returns {ApprovalItem[]} pending approvals, oldest first (the one waiting longest leads) */
  pending() {
    return [...this.approvals.values()]
      .filter((a) => a.status === 'pending' && !this.deciding.has(a.id))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** @param {string} threadId */
  runsOf(threadId) {
    return [...this.runs.values()]
      .filter((r) => r.threadId === threadId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** @param {string} threadId */
  subagentsOf(threadId) {
    return [...this.subagents.values()].filter((s) => s.threadId === threadId);
  }

  /**
   * A live event: folds it into the records, and into the thread's log when a view keeps one open.
   * @param {StoredEvent} event
   */
  apply(event) {
    if (event.seq > this.lastSeq) this.lastSeq = event.seq;
    this.applyHistory(event);
  }

  /**
   * An event read from a thread's history. It says nothing about other threads, so it must not move
   * `lastSeq`: the live stream would then skip their events in between.
   * @param {StoredEvent} event
   */
  applyHistory(event) {
    this.#fold(event);
    const log = this.logs.get(event.threadId);
    if (log !== undefined) insertEvent(log, event);
    this.changed();
  }

  /**
   * @param {StoredEvent} event
   */
  #fold(event) {
    const { threadId, at } = event;
    switch (event.type) {
      case 'thread.created':
        this.addThread({
          id: threadId,
          kind: event.data.external === undefined ? 'warden' : 'external',
          agent: event.data.agent ?? 'claude',
          ...(event.data.external === undefined ? {} : { sessionId: event.data.external.sessionId }),
          cwd: event.data.cwd,
          mode: event.data.mode,
          model: event.data.model ?? null,
          grants: [],
          deadlines: event.data.deadlines ?? { afterMs: null, rules: [] },
          status: 'idle',
          lastThreadSeq: event.threadSeq,
          createdAt: at,
          updatedAt: at,
          // Placed on another host at creation: it runs there (else its host is told by the thread's view).
          ...(typeof event.data.host === 'string'
            ? { host: { name: event.data.host, reachable: true, lastSeen: null } }
            : {}),
        });
        break;
      case 'thread.adopted':
        // Another host took the thread over: its CLI runs there now (the polled leases say if it is live).
        this.#patchThread(event, { host: { name: event.data.to, reachable: true, lastSeen: null } });
        break;
      case 'thread.titled':
        this.#patchThread(event, { title: event.data.title });
        break;
      case 'thread.mode_changed':
        this.#patchThread(event, { mode: event.data.mode });
        break;
      case 'thread.rules_granted':
      case 'thread.rule_revoked':
        this.#patchThread(event, { grants: foldGrants(this.threads.get(threadId)?.grants ?? [], event) });
        break;
      case 'thread.deadlines_set':
        this.#patchThread(event, { deadlines: event.data.deadlines });
        break;
      case 'session.started':
        this.#patchThread(event, { status: 'live' });
        break;
      case 'session.initialized':
        this.#patchThread(event, { sessionId: event.data.sessionId ?? null });
        break;
      case 'session.stopping':
        this.#patchThread(event, { status: 'stopping' });
        break;
      case 'session.ended':
        this.#patchThread(event, { status: 'idle' });
        break;
      case 'thread.parked':
        this.#patchThread(event, { status: 'parked' });
        break;
      case 'run.created':
        this.#addRun({
          id: event.data.runId,
          threadId,
          status: event.data.status,
          trigger: event.data.trigger,
          prompt: event.data.prompt ?? null,
          reason: null,
          createdAt: at,
          endedAt: null,
          releasedAt: null,
        });
        break;
      case 'run.started':
        this.#patchRun(event.data.runId, { status: 'running' });
        break;
      case 'run.ended': {
        const kind = event.data.origin?.kind;
        this.#patchRun(event.data.runId, {
          status: event.data.status,
          reason: event.data.reason ?? null,
          endedAt: at,
          ...(typeof kind === 'string' ? { trigger: kind } : {}),
        });
        break;
      }
      case 'run.released':
        this.#patchRun(event.data.runId, { releasedAt: at });
        break;
      case 'subagent.started':
        this.#addSubagent({
          id: event.data.subagentId,
          threadId,
          runId: event.data.runId,
          toolUseId: event.data.toolUseId ?? null,
          description: event.data.description ?? null,
          status: 'running',
          summary: null,
          startedAt: at,
          endedAt: null,
        });
        break;
      case 'subagent.ended': {
        const subagent = this.subagents.get(event.data.subagentId);
        if (subagent !== undefined)
          this.#addSubagent({
            ...subagent,
            status: event.data.status,
            summary: event.data.summary ?? null,
            endedAt: at,
          });
        break;
      }
      case 'approval.requested':
        this.addApproval({
          id: event.data.approvalId,
          threadId,
          runId: event.data.runId,
          subagentId: event.data.subagentId ?? null,
          toolName: event.data.toolName,
          input: event.data.input ?? {},
          toolUseId: event.data.toolUseId,
          blockedPath: event.data.blockedPath ?? null,
          decisionReason: event.data.decisionReason ?? null,
          alwaysAllowRules: Array.isArray(event.data.alwaysAllowRules) ? event.data.alwaysAllowRules : [],
          deadline: event.data.deadline ?? null,
          routing: event.data.routing ?? null,
          twoPerson: event.data.twoPerson ?? null,
          endorsements: [],
          status: 'pending',
          reason: null,
          createdAt: at,
        });
        break;
      case 'approval.endorsed': {
        // A two-person approval's first allow: it stays pending, back in the inbox for a second person.
        const approval = this.approvals.get(event.data.approvalId);
        this.deciding.delete(event.data.approvalId);
        if (approval !== undefined && approval.status === 'pending')
          this.approvals.set(approval.id, {
            ...approval,
            endorsements: [{ decidedBy: event.data.decidedBy, at }],
          });
        break;
      }
      case 'approval.decided':
        this.#settle(
          event.data.approvalId,
          event.data.behavior === 'deny' ? 'denied' : 'allowed',
          null,
          /** @type {any} */ (event.data),
        );
        break;
      case 'approval.cancelled':
        this.#settle(event.data.approvalId, 'cancelled', event.data.reason ?? null);
        break;
      case 'approval.expired':
        this.#settle(event.data.approvalId, 'expired', event.data.reason ?? null);
        break;
      case 'approval.escalated': {
        // Who may answer is the server's to say: the page fetches it again (app.js); the step shows now.
        const approval = this.approvals.get(event.data.approvalId);
        const escalation = approval?.routing?.escalation;
        if (approval !== undefined && escalation != null)
          this.addApproval({
            ...approval,
            routing: {
              ...approval.routing,
              risks: approval.routing?.risks ?? [],
              escalation: { ...escalation, escalatedAt: at },
            },
          });
        break;
      }
      default:
        // Messages and tool results only matter to the timeline; unknown types are ignored.
        break;
    }
  }

  /**
   * Thread fields follow the thread's own sequence: an event older than the record changes nothing.
   * @param {StoredEvent} event
   * @param {Partial<ThreadRecord & ThreadListItem>} patch
   */
  #patchThread(event, patch) {
    const thread = this.threads.get(event.threadId);
    if (thread === undefined || event.threadSeq <= thread.lastThreadSeq) return;
    this.threads.set(thread.id, { ...thread, ...patch, lastThreadSeq: event.threadSeq, updatedAt: event.at });
  }

  /**
   * @param {string} runId
   * @param {Partial<RunRecord>} patch
   */
  #patchRun(runId, patch) {
    const run = this.runs.get(runId);
    if (run !== undefined) this.#addRun({ ...run, ...patch });
  }

  /**
   * @param {string} approvalId
   * @param {ApprovalItem['status']} status
   * @param {string | null} reason
   * @param {ApprovalItem['decision']} [decision]
   */
  #settle(approvalId, status, reason, decision = null) {
    const approval = this.approvals.get(approvalId);
    this.deciding.delete(approvalId);
    if (approval !== undefined && approval.status === 'pending')
      this.approvals.set(approvalId, { ...approval, status, reason, decision });
  }
}

/**
 * A thread's granted rules after `thread.rules_granted` or `thread.rule_revoked`, as the server's
 * projection folds them: a rule is not repeated for the same scope and session; a revoke removes the
 * rule from its scope.
 * @param {GrantedRule[]} grants
 * @param {Extract<StoredEvent, { type: 'thread.rules_granted' | 'thread.rule_revoked' }>} event
 * @returns {GrantedRule[]}
 */
function foldGrants(grants, event) {
  if (event.type === 'thread.rule_revoked') {
    const { rule, scope } = event.data;
    return grants.filter((grant) => !(grant.rule === rule && grant.scope === scope));
  }
  const { data, at } = event;
  const next = [...grants];
  for (const rule of Array.isArray(data.rules) ? data.rules : [])
    if (!next.some((g) => g.rule === rule && g.scope === data.scope && g.sessionId === data.sessionId))
      next.push({
        rule,
        scope: data.scope,
        sessionId: data.sessionId,
        approvalId: data.approvalId,
        grantedAt: at,
      });
  return next;
}

/**
 * Inserts an event into a seq-sorted log unless it is already there.
 * @param {StoredEvent[]} log
 * @param {StoredEvent} event
 */
export function insertEvent(log, event) {
  const last = log.at(-1);
  if (last === undefined || event.seq > last.seq) {
    log.push(event);
    return;
  }
  if (log.some((e) => e.seq === event.seq)) return;
  log.push(event);
  log.sort((a, b) => a.seq - b.seq);
}
