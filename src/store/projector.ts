// Folds one event into the projection tables. It also guards the state machines: an event that does not
// fit (a decision on an approval that is no longer pending, a second end for a run) throws, and the
// transaction it runs in writes nothing. Replaying the whole log through it rebuilds the projections.
import type BetterSqlite3 from 'better-sqlite3';

import { ConflictError, NotFoundError } from '../protocol/errors.js';
import type { EventDataMap, EventDraft } from './event-types.js';
import type { DecidedBy, Endorsement, GrantedRule } from './records.js';

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function notFound(resource: string, id: string): NotFoundError {
  return new NotFoundError(resource, id, `Unknown ${resource} ${JSON.stringify(id)}`);
}

export class Projector {
  readonly #db: BetterSqlite3.Database;
  readonly #statements = new Map<string, Statement>();

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  /** Applies `event` (already validated by its type) for `threadId` at time `at`. */
  apply(threadId: string, at: string, event: EventDraft): void {
    if (
      event.type !== 'thread.created' &&
      this.#get('SELECT 1 FROM threads WHERE id = ?', threadId) === undefined
    )
      throw notFound('thread', threadId);
    switch (event.type) {
      case 'thread.created': {
        if (this.#get('SELECT 1 FROM threads WHERE id = ?', threadId) !== undefined)
          throw new ConflictError(`Thread ${threadId} already exists`);
        const { cwd, mode, model, rules, deadlines = null, external, agent = 'claude' } = event.data;
        this.#run(
          `INSERT INTO threads (id, kind, agent, session_id, cwd, mode, model, rules, deadlines, status, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'idle', ?, ?)`,
          threadId,
          external === undefined ? 'warden' : 'external',
          agent,
          external?.sessionId ?? null,
          cwd,
          mode,
          model,
          JSON.stringify(rules),
          json(deadlines),
          at,
          at,
        );
        return;
      }
      case 'thread.rules_granted':
        return this.#grant(threadId, at, event.data);
      case 'thread.command_requested':
      case 'thread.command_done':
        // A command another host forwarded to the owner: its effects are the owner's own events.
        return;
      case 'thread.rule_revoked': {
        const { rule, scope } = event.data;
        const grants = this.#grants(threadId);
        const kept = grants.filter((grant) => !(grant.rule === rule && grant.scope === scope));
        if (kept.length === grants.length)
          throw new NotFoundError(
            'rule',
            rule,
            `Thread ${threadId} has no ${scope} rule ${JSON.stringify(rule)}`,
          );
        return this.#touchThread(threadId, at, 'grants = ?', JSON.stringify(kept));
      }
      case 'thread.deadlines_set':
        return this.#touchThread(threadId, at, 'deadlines = ?', JSON.stringify(event.data.deadlines));
      case 'thread.mode_changed':
        return this.#touchThread(threadId, at, 'mode = ?', event.data.mode);
      case 'thread.titled':
        return this.#touchThread(threadId, at, 'title = ?', event.data.title);
      case 'thread.parked':
        // Written with the session's end: no CLI process, and the next send resumes the session.
        return this.#touchThread(threadId, at, "status = 'parked'");
      case 'thread.adopted':
        // The old owner's process ran on another machine: no host may take its pid for one of its own.
        return this.#touchThread(
          threadId,
          at,
          'cli_pid = NULL, cli_start_time = NULL, cli_generation = NULL, cli_spool_dir = NULL, cli_marker = NULL, cli_spool_offset = NULL',
        );
      case 'session.started':
        return this.#touchThread(threadId, at, "status = 'live', generation = ?", event.data.generation);
      case 'session.initialized':
        return this.#touchThread(threadId, at, 'session_id = ?', event.data.sessionId);
      case 'session.stopping':
        return this.#touchThread(threadId, at, "status = 'stopping'");
      case 'session.ended':
        return this.#touchThread(threadId, at, "status = 'idle'");
      case 'session.process_started': {
        const { pid, startTime, generation, spoolDir = null, marker = null } = event.data;
        const set =
          'cli_pid = ?, cli_start_time = ?, cli_generation = ?, cli_spool_dir = ?, cli_marker = ?, cli_spool_offset = 0';
        return this.#touchThread(threadId, at, set, pid, startTime, generation, spoolDir, marker);
      }
      case 'session.reattached':
      case 'session.detached':
        // The process and its spool stay on record; the thread stays live.
        return this.#touchThread(threadId, at, "status = 'live'");
      case 'session.process_exited':
        return this.#forgetProcess(threadId, at, event.data.pid);
      case 'session.leftover_process':
        // One that survived SIGKILL stays on record: the next open looks again.
        if (event.data.outcome === 'survived') return;
        return this.#forgetProcess(threadId, at, event.data.pid);
      case 'session.resume_failed':
        return this.#touchThread(threadId, at, 'session_id = NULL');
      case 'run.created': {
        const { runId, status, trigger, prompt, userMessageId, generation } = event.data;
        this.#run(
          `INSERT INTO runs (id, thread_id, status, trigger, prompt, user_message_id, generation, created_at, started_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          runId,
          threadId,
          status,
          trigger,
          prompt,
          userMessageId,
          generation,
          at,
          status === 'running' ? at : null,
        );
        return;
      }
      case 'run.started':
        return this.#transition(
          'runs',
          'run',
          event.data.runId,
          "status = 'queued'",
          "status = 'running', started_at = ?",
          at,
        );
      case 'run.ended': {
        const { runId, status, reason, result, origin } = event.data;
        const trigger = typeof origin?.kind === 'string' ? origin.kind : null;
        return this.#transition(
          'runs',
          'run',
          runId,
          "status IN ('queued', 'running')",
          `status = ?, reason = ?, result = ?, origin = coalesce(?, origin),
           trigger = CASE WHEN trigger = 'cli' AND ? IS NOT NULL THEN ? ELSE trigger END,
           started_at = coalesce(started_at, ?), ended_at = ?`,
          status,
          reason,
          json(result),
          json(origin),
          trigger,
          trigger,
          at,
          at,
        );
      }
      case 'run.released':
        return this.#transition(
          'runs',
          'run',
          event.data.runId,
          "released_at IS NULL AND status IN ('completed', 'failed', 'interrupted')",
          'released_at = ?',
          at,
        );
      case 'subagent.started': {
        const { subagentId, runId, toolUseId, description, taskType, generation } = event.data;
        if (this.#get('SELECT 1 FROM subagents WHERE id = ?', subagentId) !== undefined)
          throw new ConflictError(`Subagent ${subagentId} already exists`);
        this.#run(
          `INSERT INTO subagents (id, thread_id, run_id, tool_use_id, description, task_type, status, generation, started_at)
           VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?)`,
          subagentId,
          threadId,
          runId,
          toolUseId,
          description,
          taskType,
          generation,
          at,
        );
        return;
      }
      case 'subagent.ended': {
        const { subagentId, status, summary, reason } = event.data;
        return this.#transition(
          'subagents',
          'subagent',
          subagentId,
          "status = 'running'",
          'status = ?, summary = ?, reason = ?, ended_at = ?',
          status,
          summary,
          reason,
          at,
        );
      }
      case 'approval.requested': {
        const d = event.data;
        if (this.#get('SELECT 1 FROM approvals WHERE id = ?', d.approvalId) !== undefined)
          throw new ConflictError(`Approval ${d.approvalId} already exists`);
        this.#run(
          `INSERT INTO approvals (id, thread_id, run_id, subagent_id, tool_name, input, tool_use_id, request_id,
             suggestions, always_allow_rules, blocked_path, decision_reason, generation, deadline, routing,
             two_person, status, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
          d.approvalId,
          threadId,
          d.runId,
          d.subagentId,
          d.toolName,
          JSON.stringify(d.input),
          d.toolUseId,
          d.requestId,
          JSON.stringify(d.suggestions),
          // Events written before the field existed: nothing was offered.
          JSON.stringify(Array.isArray(d.alwaysAllowRules) ? d.alwaysAllowRules : []),
          d.blockedPath,
          d.decisionReason,
          d.generation,
          json(d.deadline),
          json(d.routing),
          d.twoPerson ?? null,
          at,
        );
        return;
      }
      case 'approval.reminded':
        return this.#routeStep(event.data.approvalId, '$.escalation.remindedAt', at);
      case 'approval.escalated':
        return this.#routeStep(event.data.approvalId, '$.escalation.escalatedAt', at);
      case 'approval.endorsed':
        return this.#endorse(event.data.approvalId, at, event.data.decidedBy);
      case 'approval.decided': {
        const { approvalId, ...decision } = event.data;
        const status = decision.behavior === 'deny' ? 'denied' : 'allowed';
        if (status === 'allowed') this.#checkSecondAllow(approvalId, decision.decidedBy?.name);
        return this.#settle(
          approvalId,
          'status = ?, decision = ?, settled_at = ?',
          status,
          JSON.stringify(decision),
          at,
        );
      }
      case 'approval.cancelled':
        return this.#settle(
          event.data.approvalId,
          "status = 'cancelled', reason = ?, settled_at = ?",
          event.data.reason,
          at,
        );
      case 'approval.expired':
        return this.#settle(
          event.data.approvalId,
          "status = 'expired', reason = ?, settled_at = ?",
          event.data.reason,
          at,
        );
      case 'run.api_retry':
      case 'external.notified':
      case 'message.user':
      case 'message.assistant':
      case 'tool.result':
      case 'permission.decided':
      case 'permission.rejected':
        // Log only: the conversation is read from the events themselves.
        return;
    }
  }

  /**
   * The first allow of a two-person approval, compare-and-set: the approval is pending, needs two and has
   * no first allow yet. Two first allows racing (on any host of a fleet) cannot both land: the loser's
   * is a ConflictError, and its decider's allow is then the second (decider.ts).
   */
  #endorse(approvalId: string, at: string, decidedBy: DecidedBy): void {
    const row = this.#twoPersonRow(approvalId);
    if (row.status !== 'pending')
      throw new ConflictError(`The approval ${approvalId} is ${row.status}; that change no longer applies`);
    if (row.two_person === null)
      throw new ConflictError(`Approval ${approvalId} needs one allow; it takes no first allow`);
    const endorsements = JSON.parse(row.endorsements) as Endorsement[];
    if (endorsements.length > 0)
      throw new ConflictError(
        `Approval ${approvalId} already has its first allow, from ${endorsements[0]?.decidedBy.name ?? '?'}`,
      );
    this.#run(
      'UPDATE approvals SET endorsements = ? WHERE id = ?',
      JSON.stringify([{ decidedBy, at }]),
      approvalId,
    );
  }

  /** A two-person approval is allowed only by a second allow: another decider than its first allow's. */
  #checkSecondAllow(approvalId: string, name: string | undefined): void {
    const row = this.#twoPersonRow(approvalId);
    if (row.two_person === null) return;
    const first = (JSON.parse(row.endorsements) as Endorsement[])[0];
    if (first === undefined)
      throw new ConflictError(`Approval ${approvalId} needs two deciders' allows; it has none yet`);
    if (first.decidedBy.name === name)
      throw new ConflictError(
        `Approval ${approvalId} was already allowed by ${first.decidedBy.name}; a second person must allow it`,
      );
  }

  #twoPersonRow(approvalId: string): { status: string; two_person: string | null; endorsements: string } {
    const row = this.#get(
      'SELECT status, two_person, endorsements FROM approvals WHERE id = ?',
      approvalId,
    ) as { status: string; two_person: string | null; endorsements: string } | undefined;
    if (row === undefined) throw notFound('approval', approvalId);
    return row;
  }

  /** A route's step: only a pending approval with an escalation takes one. */
  #routeStep(approvalId: string, path: string, at: string): void {
    const changed = this.#run(
      `UPDATE approvals SET routing = json_set(routing, ?, ?)
       WHERE id = ? AND status = 'pending' AND json_type(routing, '$.escalation') = 'object'`,
      path,
      at,
      approvalId,
    );
    if (changed === 0)
      throw new ConflictError(`Approval ${approvalId} is not pending with a route to escalate`);
  }

  /** Compare-and-set: only a pending approval can be settled, once. */
  #settle(approvalId: string, set: string, ...values: unknown[]): void {
    this.#transition('approvals', 'approval', approvalId, "status = 'pending'", set, ...values);
  }

  #transition(
    table: string,
    resource: string,
    id: string,
    guard: string,
    set: string,
    ...values: unknown[]
  ): void {
    const changed = this.#run(`UPDATE ${table} SET ${set} WHERE id = ? AND ${guard}`, ...values, id);
    if (changed > 0) return;
    const row = this.#get(`SELECT status FROM ${table} WHERE id = ?`, id) as { status: string } | undefined;
    if (row === undefined) throw notFound(resource, id);
    throw new ConflictError(`The ${resource} ${id} is ${row.status}; that change no longer applies`);
  }

  /** Only the process on record: a late exit of a replaced process must not hide its successor. */
  #forgetProcess(threadId: string, at: string, pid: number): void {
    this.#run(
      `UPDATE threads SET cli_pid = NULL, cli_start_time = NULL, cli_generation = NULL, cli_spool_dir = NULL,
         cli_marker = NULL, cli_spool_offset = NULL, updated_at = ? WHERE id = ? AND cli_pid = ?`,
      at,
      threadId,
      pid,
    );
  }

  /** How far the thread's detached CLI's spool has been processed (only while that process is on record). */
  setSpoolOffset(threadId: string, offset: number): void {
    this.#run(
      'UPDATE threads SET cli_spool_offset = max(coalesce(cli_spool_offset, 0), ?) WHERE id = ? AND cli_spool_dir IS NOT NULL',
      offset,
      threadId,
    );
  }

  /** Adds granted rules; one already granted with the same scope (and session) is not repeated. */
  #grant(threadId: string, at: string, data: EventDataMap['thread.rules_granted']): void {
    const grants = this.#grants(threadId);
    for (const rule of data.rules) {
      const same = grants.some(
        (grant) => grant.rule === rule && grant.scope === data.scope && grant.sessionId === data.sessionId,
      );
      if (!same)
        grants.push({
          rule,
          scope: data.scope,
          sessionId: data.sessionId,
          approvalId: data.approvalId,
          grantedAt: at,
        });
    }
    this.#touchThread(threadId, at, 'grants = ?', JSON.stringify(grants));
  }

  #grants(threadId: string): GrantedRule[] {
    const row = this.#get('SELECT grants FROM threads WHERE id = ?', threadId) as { grants: string };
    return JSON.parse(row.grants) as GrantedRule[];
  }

  #touchThread(threadId: string, at: string, set: string, ...values: unknown[]): void {
    this.#run(`UPDATE threads SET ${set}, updated_at = ? WHERE id = ?`, ...values, at, threadId);
  }

  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run(sql: string, ...values: unknown[]): number {
    return this.#statement(sql).run(...values).changes;
  }

  #get(sql: string, ...values: unknown[]): unknown {
    return this.#statement(sql).get(...values);
  }
}
