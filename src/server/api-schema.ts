// The contract between the server and its clients (the browser UI, scripts): request bodies as zod
// schemas, response shapes as types, and the WebSocket messages and close codes. docs/server.md is the
// prose version of this file; change both together.
import { z } from 'zod';

import type { StoredEvent } from '../store/event-types.js';
import type {
  ApprovalRecord,
  ApprovalStatus,
  RunRecord,
  SubagentRecord,
  ThreadHost,
  ThreadMode,
  ThreadRecord,
} from '../store/records.js';
import { MAX_TITLE_LENGTH } from '../supervisor/runtime/thread-title.js';
import type { BatchLeftOut } from '../supervisor/approvals/batch-left-out.js';
import type { TimelineItem } from '../supervisor/timeline.js';

export type {
  ApprovalRecord,
  ApprovalStatus,
  RunRecord,
  StoredEvent,
  SubagentRecord,
  ThreadMode,
  ThreadRecord,
  TimelineItem,
};

const MODES = ['supervised', 'auto-edits', 'full-access'] as const satisfies readonly ThreadMode[];
// Fails to compile if the supervisor gains a mode this list lacks.
const _allModes: Record<ThreadMode, true> = { supervised: true, 'auto-edits': true, 'full-access': true };
void _allModes;

const APPROVAL_STATUSES = [
  'pending',
  'allowed',
  'denied',
  'cancelled',
  'expired',
] as const satisfies readonly ApprovalStatus[];

/** Request bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

const nonEmpty = z.string().trim().min(1);

// ---- Requests ----------------------------------------------------------------------------------------

/** A rule as the supervisor's rules take it (`Bash(npm test:*)`, `Read(/etc/*)`); checked there. */
const ruleText = nonEmpty.max(4096);

/** "If unanswered after N ms": a default that denies, and rules that may allow (supervisor deadlines). */
const Deadlines = z.strictObject({
  afterMs: z.number().int().nullable().optional(),
  rules: z
    .array(z.strictObject({ rule: ruleText, afterMs: z.number().int(), behavior: z.enum(['allow', 'deny']) }))
    .max(64)
    .optional(),
});

/** `POST /api/threads`. With `prompt`, the first message is sent at once. */
export const CreateThreadRequest = z.strictObject({
  cwd: nonEmpty,
  mode: z.enum(MODES),
  /** The agent CLI: Claude Code (the default) or the Codex app-server (docs/agents.md). */
  agent: z.enum(['claude', 'codex']).optional(),
  model: nonEmpty.optional(),
  /** Without one, the thread is named by the first line of its first prompt. */
  title: nonEmpty.max(MAX_TITLE_LENGTH).optional(),
  prompt: nonEmpty.optional(),
  /** Start the CLI in plan mode, until a plan is approved. */
  plan: z.boolean().optional(),
  rules: z
    .strictObject({ allow: z.array(nonEmpty).optional(), deny: z.array(nonEmpty).optional() })
    .optional(),
  deadlines: Deadlines.optional(),
  /** In a fleet: the host to run the thread on. */
  host: nonEmpty.max(100).optional(),
});
export type CreateThreadRequest = z.infer<typeof CreateThreadRequest>;

/** `POST /api/threads/:id/messages`. */
export const SendMessageRequest = z.strictObject({ text: nonEmpty });
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

/** `PATCH /api/threads/:id`: a new mode, a new title, or both. */
export const UpdateThreadRequest = z
  .strictObject({ mode: z.enum(MODES).optional(), title: nonEmpty.max(MAX_TITLE_LENGTH).optional() })
  .refine((u) => u.mode !== undefined || u.title !== undefined, { message: 'give a mode or a title' });
export type UpdateThreadRequest = z.infer<typeof UpdateThreadRequest>;

/** `POST /api/approvals/:id/decision`. `interrupt` goes with `deny` only. */
export const DecisionRequest = z
  .strictObject({
    behavior: z.enum(['allow', 'allow_always', 'deny']),
    message: z.string().max(4000).optional(),
    interrupt: z.boolean().optional(),
    /** A Bearer client that is a terminal (`warden run`) says so, for the record; the name is the token's. */
    via: z.enum(['terminal']).optional(),
    /** With allow: the input a person edited, run instead of the one asked with (supervisor Decision). */
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    /** With allow, for AskUserQuestion: the answer to each question, by its text. */
    answers: z.record(z.string(), z.string().min(1).max(4000)).optional(),
    /** With allow, for ExitPlanMode: the thread's mode from now on. */
    mode: z.enum(MODES).optional(),
    /** With allow_always: how long the rules hold (default `session`). */
    scope: z.enum(['session', 'thread', 'project']).optional(),
    /** With allow_always: the approval's rules, some of them, or narrower ones. */
    rules: z.array(ruleText).min(1).max(16).optional(),
  })
  .refine((d) => d.interrupt !== true || d.behavior === 'deny', {
    message: 'interrupt goes with a deny only',
    path: ['interrupt'],
  });
export type DecisionRequest = z.infer<typeof DecisionRequest>;

/** `POST /api/threads/:id/rules`: allow rules added to the thread, until removed. */
export const GrantRulesRequest = z.strictObject({ rules: z.array(ruleText).min(1).max(64) });

/** `DELETE /api/threads/:id/rules`: a rule granted for the thread or its CLI session. */
export const RevokeRuleRequest = z.strictObject({
  rule: ruleText,
  scope: z.enum(['thread', 'session']).optional(),
});

/**
 * `POST /api/policy/simulate`: a proposed change replayed over the recorded requests of a scope and a
 * period (docs/decisions.md). `limit`: how many of the requests it would decide otherwise to list.
 */
export const SimulateRequest = z.strictObject({
  scope: z
    .union([
      z.literal('all'),
      z.strictObject({ threadId: nonEmpty.max(200) }),
      z.strictObject({ cwd: nonEmpty.max(4096) }),
    ])
    .optional(),
  change: z.strictObject({
    allow: z.array(ruleText).max(200).optional(),
    deny: z.array(ruleText).max(200).optional(),
    remove: z.array(ruleText).max(200).optional(),
    mode: z.enum(['supervised', 'auto-edits', 'full-access']).optional(),
    /** Deadlines in place of the threads' own: which past asks one would have answered. */
    deadlines: Deadlines.optional(),
  }),
  since: z.string().max(64).optional(),
  until: z.string().max(64).optional(),
  limit: z.number().int().min(0).max(5000).optional(),
});

/** `PUT /api/threads/:id/deadlines`: replaces the thread's deadlines (new approvals only). */
export const DeadlinesRequest = Deadlines;

/** Which pending approvals a batch covers: a thread's, a subagent's, or those a rule covers. */
const BatchSelect = z.strictObject({
  threadId: nonEmpty.optional(),
  subagentId: nonEmpty.optional(),
  rule: ruleText.optional(),
});

/** `POST /api/approvals/batch/preview`: which approvals a batch would answer, for `behavior`. */
export const BatchPreviewRequest = z.strictObject({
  select: BatchSelect,
  behavior: z.enum(['allow', 'deny']).optional(),
});

/** `POST /api/approvals/batch`: one answer for the approvals a preview listed, each decided on its own. */
export const BatchDecisionRequest = z
  .strictObject({
    approvalIds: z.array(nonEmpty).min(1).max(500),
    behavior: z.enum(['allow', 'deny']),
    message: z.string().max(4000).optional(),
    interrupt: z.boolean().optional(),
  })
  .refine((d) => d.interrupt !== true || d.behavior === 'deny', {
    message: 'interrupt goes with a deny only',
    path: ['interrupt'],
  });

/** Query of `GET /api/approvals`. */
export const ApprovalsQuery = z.strictObject({
  status: z.enum(APPROVAL_STATUSES).optional(),
  threadId: nonEmpty.optional(),
});

/** `since`: a global event seq (0 = from the beginning). */
export const SeqParam = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Query of `GET /api/threads/:id/events`. */
export const EventsQuery = z.strictObject({
  since: SeqParam.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** Query of `GET /ws`. Without `since`, only events after the connection is made are sent. */
export const SocketQuery = z.strictObject({ since: SeqParam.optional(), threadId: nonEmpty.optional() });

// ---- Responses ---------------------------------------------------------------------------------------

/** One row of `GET /api/threads`: the record (with its `title`) plus what a sidebar needs. */
export type ThreadListItem = ThreadRecord & {
  pendingApprovals: number;
  /** A run is queued or running, or a subagent is running. */
  busy: boolean;
  /** In a fleet, the host that runs the thread and whether its lease runs; null outside one. */
  host: ThreadHost | null;
};

/** `POST /api/approvals/batch/preview`: what a batch answers, and what an allow leaves out (and why). */
export interface BatchPreviewResponse {
  approvals: ApprovalRecord[];
  leftOut: BatchLeftOut[];
}

/** `POST /api/approvals/batch`: what was answered, what had been settled meanwhile, what was left out. */
export interface BatchDecisionResponse {
  decided: ApprovalRecord[];
  alreadySettled: { id: string; status: ApprovalStatus }[];
  leftOut: BatchLeftOut[];
}

export interface ThreadListResponse {
  threads: ThreadListItem[];
  /** The newest global event seq the server had seen: open `/ws?since=` with it. */
  lastSeq: number;
}

export interface CreateThreadResponse {
  thread: ThreadRecord;
  /** The run of `prompt`, when one was given. */
  run: RunRecord | null;
}

/** `GET /api/threads/:id`: the projections, the conversation, and where its event stream stands. */
export interface ThreadDetailResponse {
  thread: ThreadRecord;
  runs: RunRecord[];
  subagents: SubagentRecord[];
  approvals: ApprovalRecord[];
  timeline: TimelineItem[];
  /** In a fleet, the host that runs the thread and whether its lease runs; null outside one. */
  host: ThreadHost | null;
  /** The seq of the thread's newest event: `/ws?threadId=…&since=lastSeq` continues from here. */
  lastSeq: number;
}

export interface EventsResponse {
  events: StoredEvent[];
  /** The seq of the last event returned (or `since` when none): pass it as the next `since`. */
  lastSeq: number;
  /** More events were already there: ask again with `since=lastSeq`. */
  more: boolean;
}

/**
 * An approval as the inbox shows it: which thread (its folder and title) and which subagent (by
 * description) it came from.
 */
export type ApprovalItem = ApprovalRecord & {
  subagentDescription: string | null;
  cwd: string;
  threadTitle: string | null;
  /**
   * In a fleet, the host whose CLI waits on the approval; `reachable: false` once its lease expired (a
   * decision is then refused with a 409 and nothing recorded, until the host is back or the thread adopted).
   */
  host: ThreadHost | null;
  /**
   * The named deciders who may answer it now, by their scopes and its route's escalation (answerers.ts);
   * the owner always may and is not listed. Empty: the owner only.
   */
  answerableBy: string[];
};

export interface ApprovalListResponse {
  approvals: ApprovalItem[];
  lastSeq: number;
}

export interface InfoResponse {
  version: string;
  modes: ThreadMode[];
  /** A working directory the UI may propose for a new thread. */
  defaultCwd: string;
  /**
   * Whether the agents' Bash commands run with the protected paths unwritable by the operating system
   * (docs/security.md); `reason` says why not.
   */
  sandbox?: {
    mode: 'auto' | 'required' | 'off';
    enforced: boolean;
    reason: string | null;
    mechanism: 'bubblewrap' | 'cli' | null;
  };
}

export type ApiErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL';

/** Every error response: `{ error: { code, message } }`. */
export interface ErrorResponse {
  error: { code: ApiErrorCode | (string & {}); message: string };
}

// ---- WebSocket ---------------------------------------------------------------------------------------

/** Server → client text frames. */
export type ServerMessage =
  | { type: 'event'; event: StoredEvent }
  /** Sent once, when the replay has caught up; events after it are live. */
  | { type: 'live'; seq: number }
  /** The answer to a client's `{type:'ping'}`. */
  | { type: 'pong' };

/** Client → server text frames (anything else is ignored). */
export type ClientMessage = { type: 'ping' };

export const WS_CLOSE = {
  /** The server is shutting down. */
  GOING_AWAY: 1001,
  INTERNAL_ERROR: 1011,
  /** The browser session the socket was opened with has ended (logout, revoke-all, expiry). */
  SESSION_ENDED: 4001,
  /** The client fell too far behind; the reason says `since=<seq>` to reconnect with. */
  TOO_SLOW: 4008,
} as const;
