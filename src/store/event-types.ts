// The event vocabulary: everything that happens to a thread is one of these, appended to the log. The
// projections (threads, runs, subagents, approvals) are a fold over them (projector.ts), so a UI can rebuild
// any view, and the conversation, from the log alone.
import type {
  AgentKind,
  ApprovalDeadline,
  ApprovalRouting,
  ApprovalDecision,
  ApprovalRecord,
  DecidedBy,
  GrantScope,
  RunResult,
  RunStatus,
  SubagentStatus,
  ThreadDeadlines,
  ThreadMode,
  ThreadRules,
} from './records.js';

/** What another host of a fleet may ask a thread's owner to do with its CLI. */
export type RemoteCommandName = 'send' | 'interrupt' | 'stop' | 'stop_subagent' | 'set_mode';
export interface RemoteCommandArgs {
  text?: string;
  subagentId?: string;
  mode?: ThreadMode;
}

/** One content block of an assistant message, as recorded. */
export type AssistantBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; text: string };

/** Which permission check failed when a request was refused without asking anyone. */
export type RejectCondition =
  'stale_process' | 'thread_stopping' | 'aborted' | 'subagent_not_running' | 'no_owner' | 'malformed_request';

/**
 * What open() did with a CLI process a previous host left: `stopped` (it was still running: SIGTERM, then
 * SIGKILL if needed, to its process group), `gone` (it had exited), `reused` (the pid now names another
 * process, which was left alone), `unverifiable` (no start time to compare: left alone), `survived` (still
 * there after SIGKILL; kept on record for the next open).
 */
export type LeftoverOutcome = 'stopped' | 'gone' | 'reused' | 'unverifiable' | 'survived';

export interface EventDataMap {
  'thread.created': {
    cwd: string;
    mode: ThreadMode;
    model: string | null;
    rules: ThreadRules;
    /** Absent in events written before deadlines existed. */
    deadlines?: ThreadDeadlines;
    /** The thread's CLI starts in plan mode (until a plan of it is approved). */
    plan?: true;
    /** The fleet host it was placed on, when not the host that created it (that host owns it otherwise). */
    host?: string;
    /**
     * A CLI session Warden did not start, adopted through its hooks: the CLI's session id (the thread's
     * `sessionId` from the start) and the hook token that reported it (only it may wait on its approvals).
     */
    external?: { sessionId: string; reporter: string };
    /** The agent CLI the thread runs; absent: Claude Code. */
    agent?: AgentKind;
  };
  /** Rules a person granted with always-allow, for the CLI session, the thread or the project. */
  'thread.rules_granted': {
    approvalId: string | null;
    scope: GrantScope;
    rules: string[];
    sessionId: string | null;
  };
  /** A granted rule removed (thread or session scope; the project's file is the CLI's). */
  'thread.rule_revoked': { rule: string; scope: GrantScope };
  'thread.deadlines_set': { deadlines: ThreadDeadlines };
  'thread.mode_changed': { mode: ThreadMode; previous: ThreadMode };
  /**
   * A host of a fleet asked the thread's owner (`to`) to run a command on its CLI; the owner runs it when
   * it folds this in. A `send` runs as the run whose id is `requestId`; the others are marked done by a
   * `thread.command_done` of the same `requestId` (committed before the command runs: at most once).
   */
  'thread.command_requested': {
    requestId: string;
    command: RemoteCommandName;
    args: RemoteCommandArgs;
    /** The host that took the command. */
    by: string;
    to: string;
  };
  /** The owner took up a requested command (`error`: why it could not run it). */
  'thread.command_done': { requestId: string; error: string | null };
  /** The thread's title: from its first prompt, or a name a person gave (at creation or later). */
  'thread.titled': { title: string; source: 'prompt' | 'user' };
  /** A CLI process was started; `resume` is the session id it continues, if any. */
  'session.started': { generation: number; resume: string | null };
  'session.initialized': {
    generation: number;
    sessionId: string;
    model: string | null;
    cliVersion: string | null;
  };
  'session.stopping': { generation: number; reason: string };
  'session.ended': { generation: number; reason: string; error: string | null };
  /** The CLI process was spawned: recorded so that a host restarted after a crash can find it. */
  'session.process_started': {
    generation: number;
    pid: number;
    startTime: number | null;
    /** A detached process: where its pipe and spool are, and its marker (absent for a piped child). */
    spoolDir?: string;
    marker?: string;
  };
  /** A host opened after another found the thread's detached CLI still running and took it over. */
  'session.reattached': { generation: number; pid: number; spoolOffset: number };
  /**
   * The host closed and left the thread's detached CLI running for the next host. `idleUntil` (epoch
   * ms): the CLI was idle, and its watchdog ends it then unless a host re-attaches it first; absent, it
   * waits for a host (it was busy, or no idle limit is set).
   */
  'session.detached': { generation: number; pid: number; spoolOffset: number; idleUntil?: number };
  /** The CLI process, and everything it started, is gone. */
  'session.process_exited': { generation: number; pid: number };
  /** open() found the CLI process of a host that did not close, and dealt with it. */
  'session.leftover_process': {
    generation: number;
    pid: number;
    startTime: number | null;
    outcome: LeftoverOutcome;
    /** The signal that ended it (`stopped`), else null. */
    signal: 'SIGTERM' | 'SIGKILL' | null;
  };
  /**
   * The CLI could not resume the thread's session (its transcript is gone, or was never written because
   * the CLI was killed before it flushed it). The thread forgets the session id; the messages that never
   * reached the model are sent again in a new session.
   */
  'session.resume_failed': { generation: number; sessionId: string; error: string };
  /**
   * The thread's CLI was stopped because it had nothing to do (no turn, no subagent, nothing pending)
   * for `idleMs`; the next send resumes its session in a new process. Committed with its session.ended.
   * `detached_idle`: its host had let go of it idle (close()), and no host took it back for `idleMs`
   * (`detachedIdleMs`), so its watchdog ended it; recorded by the next open().
   */
  'thread.parked': { generation: number; reason: 'idle' | 'detached_idle'; idleMs: number };
  /**
   * A host of a fleet took the thread over from its owner, whose lease had expired (`from`: null for a
   * thread from before hosts had names); `to` runs its CLI from now on. Committed with the closeout of
   * what the old owner's CLI left pending.
   */
  'thread.adopted': { from: string | null; to: string };
  /**
   * An external session's CLI told its user something (its `Notification` hook: it waits for input or a
   * permission) or ended a turn with nothing to say (`Stop`, recorded as the run's end instead).
   */
  'external.notified': { notificationType: string | null; message: string };
  'run.created': {
    runId: string;
    status: 'queued' | 'running';
    trigger: string;
    prompt: string | null;
    userMessageId: string | null;
    generation: number;
    /** The run whose message this one sends again (`trigger: 'history_lost'`). */
    retryOf?: string;
  };
  'run.started': { runId: string };
  'run.ended': {
    runId: string;
    status: Extract<RunStatus, 'completed' | 'failed' | 'interrupted'>;
    reason: string | null;
    result: RunResult | null;
    origin: Record<string, unknown> | null;
  };
  'run.released': { runId: string };
  /** The CLI retries an API call; transient progress, shown, never a state change. */
  'run.api_retry': {
    runId: string | null;
    attempt: number | null;
    maxRetries: number | null;
    errorStatus: number | null;
    error: string | null;
  };
  'message.user': { runId: string; uuid: string; text: string };
  'message.assistant': {
    runId: string;
    agentId: string | null;
    parentToolUseId: string | null;
    messageId: string | null;
    blocks: AssistantBlock[];
  };
  'tool.result': {
    runId: string;
    agentId: string | null;
    toolUseId: string;
    isError: boolean;
    text: string;
    truncated: boolean;
  };
  'subagent.started': {
    subagentId: string;
    runId: string;
    toolUseId: string | null;
    description: string | null;
    taskType: string | null;
    generation: number;
  };
  'subagent.ended': {
    subagentId: string;
    status: Exclude<SubagentStatus, 'running'>;
    summary: string | null;
    reason: string | null;
  };
  /** The policy (mode or a rule) answered a permission request by itself: no approval was made. */
  'permission.decided': {
    runId: string;
    subagentId: string | null;
    toolName: string;
    input: Record<string, unknown>;
    toolUseId: string;
    behavior: 'allow' | 'deny';
    source: 'mode' | 'rule';
    rule: string | null;
    reason: string;
    /** What the CLI said when it asked, when it said it (absent in events written before). */
    decisionReason?: string;
    blockedPath?: string;
  };
  /** A permission request that could not be honoured; the CLI got a deny saying why. */
  'permission.rejected': {
    runId: string | null;
    subagentId: string | null;
    toolName: string;
    toolUseId: string;
    generation: number;
    condition: RejectCondition;
    message: string;
  };
  /** The request as the approval record keeps it (records.ts), named by its id. */
  'approval.requested': { approvalId: string } & Pick<
    ApprovalRecord,
    | 'runId'
    | 'subagentId'
    | 'toolName'
    | 'input'
    | 'toolUseId'
    | 'requestId'
    | 'suggestions'
    | 'alwaysAllowRules'
    | 'blockedPath'
    | 'decisionReason'
    | 'generation'
  > & {
      /** Absent in events written before deadlines existed. */
      deadline?: ApprovalDeadline | null;
      /** Absent in events written before routing existed. */
      routing?: ApprovalRouting | null;
      /** Why two deciders must allow it (ApprovalRecord.twoPerson); absent or null: one allow answers it. */
      twoPerson?: string | null;
    };
  /** Its route's reminder time passed with the approval unanswered: those who may answer are reminded. */
  'approval.reminded': { approvalId: string; route: string };
  /** Its route's escalation time passed unanswered: `to` may answer it too, and are told. */
  'approval.escalated': { approvalId: string; route: string; to: string[] };
  /**
   * The first allow of a two-person approval: recorded and audited, the approval stays pending and the
   * CLI hears nothing. A second allow from another decider decides it (`approval.decided`, `endorsedBy`).
   */
  'approval.endorsed': { approvalId: string; decidedBy: DecidedBy };
  'approval.decided': { approvalId: string } & ApprovalDecision;
  'approval.cancelled': { approvalId: string; reason: string };
  'approval.expired': { approvalId: string; reason: string };
}

export type EventType = keyof EventDataMap;

/** An event before it is stored: the store assigns the sequence numbers and the time. */
export type EventDraft = { [K in EventType]: { type: K; data: EventDataMap[K] } }[EventType];

/**
 * A stored event. `seq` is global and contiguous (use it with `events({since})`); `threadSeq` counts the
 * thread's own events from 1 without gaps.
 */
export type StoredEvent = {
  [K in EventType]: {
    seq: number;
    threadId: string;
    threadSeq: number;
    type: K;
    at: string;
    data: EventDataMap[K];
  };
}[EventType];

/**
 * A stored event as JSON text (what JSON.stringify gives of the StoredEvent), for readers that pass events
 * on as they are — the server's live feed — without building each one and serialising it again.
 */
export interface EventText {
  readonly seq: number;
  readonly threadId: string;
  readonly json: string;
}

export const EVENT_TYPES: readonly EventType[] = [
  'thread.created',
  'thread.mode_changed',
  'thread.command_requested',
  'thread.command_done',
  'thread.titled',
  'thread.rules_granted',
  'thread.rule_revoked',
  'thread.deadlines_set',
  'thread.parked',
  'thread.adopted',
  'external.notified',
  'session.started',
  'session.initialized',
  'session.stopping',
  'session.ended',
  'session.process_started',
  'session.process_exited',
  'session.reattached',
  'session.detached',
  'session.leftover_process',
  'session.resume_failed',
  'run.created',
  'run.started',
  'run.ended',
  'run.released',
  'run.api_retry',
  'message.user',
  'message.assistant',
  'tool.result',
  'subagent.started',
  'subagent.ended',
  'permission.decided',
  'permission.rejected',
  'approval.requested',
  'approval.endorsed',
  'approval.decided',
  'approval.cancelled',
  'approval.expired',
  'approval.reminded',
  'approval.escalated',
];
