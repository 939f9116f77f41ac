// Rows of the projection tables → the records the store hands out. Only our own writes are read back, so
// the casts trust the schema; JSON columns are parsed here and nowhere else.
import type { EventText, StoredEvent } from './event-types.js';
import type {
  ApprovalDeadline,
  ApprovalRouting,
  ApprovalDecision,
  ApprovalRecord,
  Endorsement,
  GrantedRule,
  RunRecord,
  RunResult,
  SubagentRecord,
  ThreadDeadlines,
  ThreadRecord,
  ThreadRules,
} from './records.js';

export type Row = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? `${value}` : '';
}

function strOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : str(value);
}

function parsed<T>(value: unknown): T | null {
  return typeof value === 'string' ? (JSON.parse(value) as T) : null;
}

export function threadFromRow(row: Row): ThreadRecord {
  return {
    id: str(row.id),
    // A store read before its kind column existed holds only threads Warden ran.
    kind: row.kind === 'external' ? 'external' : 'warden',
    // A store read before its agent column existed holds only Claude Code threads.
    agent: row.agent === 'codex' ? 'codex' : 'claude',
    cwd: str(row.cwd),
    // A store read before its title column existed (the read-only view of an older file) has none.
    title: strOrNull(row.title),
    mode: str(row.mode) as ThreadRecord['mode'],
    model: strOrNull(row.model),
    rules: parsed<ThreadRules>(row.rules) ?? { allow: [], deny: [] },
    grants: parsed<GrantedRule[]>(row.grants) ?? [],
    deadlines: parsed<ThreadDeadlines>(row.deadlines) ?? { afterMs: null, rules: [] },
    status: str(row.status) as ThreadRecord['status'],
    sessionId: strOrNull(row.session_id),
    generation: Number(row.generation),
    lastThreadSeq: Number(row.last_seq),
    cliProcess:
      row.cli_pid === null || row.cli_pid === undefined
        ? null
        : {
            pid: Number(row.cli_pid),
            startTime: row.cli_start_time === null ? null : Number(row.cli_start_time),
            generation: Number(row.cli_generation),
            spoolDir: strOrNull(row.cli_spool_dir),
            marker: strOrNull(row.cli_marker),
            spoolOffset: Number(row.cli_spool_offset ?? 0),
          },
    createdAt: str(row.created_at),
    updatedAt: str(row.updated_at),
  };
}

export function runFromRow(row: Row): RunRecord {
  return {
    id: str(row.id),
    threadId: str(row.thread_id),
    status: str(row.status) as RunRecord['status'],
    trigger: str(row.trigger),
    origin: parsed<Record<string, unknown>>(row.origin),
    prompt: strOrNull(row.prompt),
    userMessageId: strOrNull(row.user_message_id),
    generation: Number(row.generation),
    result: parsed<RunResult>(row.result),
    reason: strOrNull(row.reason),
    createdAt: str(row.created_at),
    startedAt: strOrNull(row.started_at),
    endedAt: strOrNull(row.ended_at),
    releasedAt: strOrNull(row.released_at),
  };
}

export function subagentFromRow(row: Row): SubagentRecord {
  return {
    id: str(row.id),
    threadId: str(row.thread_id),
    runId: str(row.run_id),
    toolUseId: strOrNull(row.tool_use_id),
    description: strOrNull(row.description),
    taskType: strOrNull(row.task_type),
    status: str(row.status) as SubagentRecord['status'],
    summary: strOrNull(row.summary),
    reason: strOrNull(row.reason),
    generation: Number(row.generation),
    startedAt: str(row.started_at),
    endedAt: strOrNull(row.ended_at),
  };
}

export function approvalFromRow(row: Row): ApprovalRecord {
  return {
    id: str(row.id),
    threadId: str(row.thread_id),
    runId: str(row.run_id),
    subagentId: strOrNull(row.subagent_id),
    toolName: str(row.tool_name),
    input: parsed<Record<string, unknown>>(row.input) ?? {},
    toolUseId: str(row.tool_use_id),
    requestId: str(row.request_id),
    suggestions: parsed<unknown[]>(row.suggestions) ?? [],
    alwaysAllowRules: parsed<string[]>(row.always_allow_rules) ?? [],
    deadline: parsed<ApprovalDeadline>(row.deadline),
    // Absent before the column existed (a read-only reader of an older database).
    routing: parsed<ApprovalRouting>(row.routing),
    twoPerson: strOrNull(row.two_person),
    endorsements: parsed<Endorsement[]>(row.endorsements) ?? [],
    blockedPath: strOrNull(row.blocked_path),
    decisionReason: strOrNull(row.decision_reason),
    generation: Number(row.generation),
    status: str(row.status) as ApprovalRecord['status'],
    decision: parsed<ApprovalDecision>(row.decision),
    reason: strOrNull(row.reason),
    createdAt: str(row.created_at),
    settledAt: strOrNull(row.settled_at),
  };
}

export function eventFromRow(row: Row): StoredEvent {
  return {
    seq: Number(row.seq),
    threadId: str(row.thread_id),
    threadSeq: Number(row.thread_seq),
    type: str(row.type),
    at: str(row.at),
    data: JSON.parse(str(row.data)) as unknown,
  } as StoredEvent;
}

/** An event's JSON text, from the event. */
export function eventTextOf(event: StoredEvent): EventText {
  return { seq: event.seq, threadId: event.threadId, json: JSON.stringify(event) };
}

/**
 * An event's JSON text straight from its row, the same text as JSON.stringify(eventFromRow(row)) without
 * parsing the data: only for rows whose data is JSON.stringify's own text (the rows an EventTail keeps:
 * written by this store, or parsed when they were folded in), never for rows as a query reads them.
 */
export function eventTextFromRow(row: Row): EventText {
  const seq = Number(row.seq);
  const threadId = str(row.thread_id);
  const json =
    `{"seq":${seq},"threadId":${JSON.stringify(threadId)},"threadSeq":${Number(row.thread_seq)},` +
    `"type":${JSON.stringify(str(row.type))},"at":${JSON.stringify(str(row.at))},"data":${str(row.data)}}`;
  return { seq, threadId, json };
}
