// The supervisor's domain records as the store keeps them (the projections), and their states. Absent
// values are `null`, never missing keys: the records travel as JSON to the server and the browser.

/** How much the policy allows without asking a person. */
export type ThreadMode = 'supervised' | 'auto-edits' | 'full-access';
export const THREAD_MODES: readonly ThreadMode[] = ['supervised', 'auto-edits', 'full-access'];

/**
 * `idle`: no CLI process. `live`: one CLI process runs for the thread. `stopping`: stop() is under way.
 * `parked`: no CLI process because it had nothing to do for the idle period; the next send resumes it.
 */
export type ThreadStatus = 'idle' | 'live' | 'stopping' | 'parked';

/** `queued`: sent while another turn ran. Ends in exactly one of completed, failed, interrupted. */
export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'interrupted';

export type SubagentStatus = 'running' | 'completed' | 'failed' | 'stopped' | 'lost';

export type ApprovalStatus = 'pending' | 'allowed' | 'denied' | 'cancelled' | 'expired';

/** What a person (or the policy, after a mode change) answered. */
export type DecisionBehavior = 'allow' | 'allow_always' | 'deny';

/** How long an always-allowed rule holds: the CLI session, the thread, or the project's settings file. */
export type GrantScope = 'session' | 'thread' | 'project';
export const GRANT_SCOPES: readonly GrantScope[] = ['session', 'thread', 'project'];

/** A rule a person granted with "always allow" (grants.ts). */
export interface GrantedRule {
  rule: string;
  scope: GrantScope;
  /** For `session`: the CLI session it holds in. */
  sessionId: string | null;
  /** The approval it was granted with. */
  approvalId: string | null;
  grantedAt: string;
}

/**
 * Where always-allowed rules are kept: in the CLI's session (`session`: the CLI is sent a session rule,
 * and Warden's policy applies it while the thread is in that session), in Warden's event log for the
 * thread (`warden`: the CLI is not told), or in a settings file the CLI writes (`localSettings`: the
 * project's `.claude/settings.local.json`; `projectSettings` and `userSettings` are the CLI's other
 * settings files, which Warden does not write to today).
 */
export type GrantDestination = 'session' | 'warden' | 'localSettings' | 'projectSettings' | 'userSettings';

/** What an allow_always added, as decided: the rules, how long they hold, and where they are kept. */
export interface DecisionGrant {
  scope: GrantScope;
  /** The rules added: the approval's `alwaysAllowRules`, some of them, or narrower ones. */
  rules: string[];
  destination: GrantDestination;
  /** The settings file the CLI writes the rules to (absolute path), for a settings destination; else null. */
  settingsFile: string | null;
  /** For `session`: the CLI session the rules hold in (null when the thread had none yet). */
  sessionId: string | null;
}

/** "If unanswered after N ms": a default that denies, and rules that may allow (deadlines.ts). */
export interface ThreadDeadlines {
  afterMs: number | null;
  rules: { rule: string; afterMs: number; behavior: 'allow' | 'deny' }[];
}

/** When an approval is answered for the person, and how. */
export interface ApprovalDeadline {
  at: string;
  behavior: 'allow' | 'deny';
  /** The deadline rule that set it; null for the thread's default. */
  rule: string | null;
}

/**
 * What makes a call risky for routing (approvals/scope.ts): it writes a protected or sensitive file
 * (`protected`), reaches the network (`network`), or is a shell command at all (`bash`).
 */
export type ApprovalRisk = 'protected' | 'network' | 'bash';

/**
 * How an approval is routed, worked out when it is made: its risks (what a decider's scope may name), and
 * the escalation of the route that covers it, if one does (approvals/routes.ts). Times are absolute, so a
 * host that was down when one passed takes the step at open.
 */
export interface ApprovalRouting {
  risks: ApprovalRisk[];
  escalation: ApprovalEscalation | null;
}

export interface ApprovalEscalation {
  /** The route's name. */
  route: string;
  /** When the deciders it was offered to are reminded (null: no reminder). */
  remindAt: string | null;
  /** When `to` may answer it too, and are told. */
  escalateAt: string;
  /** The deciders added to those who may answer. */
  to: string[];
  /** When each step was taken (null: not yet). */
  remindedAt: string | null;
  escalatedAt: string | null;
}

/** Allow and deny patterns such as `Bash(git status:*)` or `Read(/etc/*)`; deny wins. */
export interface ThreadRules {
  allow: string[];
  deny: string[];
}

/**
 * `warden`: Warden runs the thread's CLI. `external`: a Claude Code session Warden did not start (a terminal,
 * an IDE, a headless `claude -p`), adopted through its hooks (`warden hook run`); it is answered here and
 * driven from where it runs, so Warden never sends it a message, resumes or stops it.
 */
export type ThreadKind = 'warden' | 'external';

/** The agent CLI behind a thread: Claude Code (`claude`), or the Codex app-server (`codex`). */
export type AgentKind = 'claude' | 'codex';

export interface ThreadRecord {
  id: string;
  kind: ThreadKind;
  /** The agent CLI the thread runs (docs/agents.md). */
  agent: AgentKind;
  cwd: string;
  /**
   * What a person reads to tell threads apart: a name given at creation or later, else the first line of
   * the first prompt; null before there is either. One line, invisible characters shown as markers.
   */
  title: string | null;
  mode: ThreadMode;
  model: string | null;
  rules: ThreadRules;
  /** Rules granted by always-allow (thread and session scope are applied by the policy; project is the CLI's). */
  grants: GrantedRule[];
  deadlines: ThreadDeadlines;
  status: ThreadStatus;
  /** The CLI's session id, kept so that the next process resumes the conversation. */
  sessionId: string | null;
  /** Counts CLI processes started for this thread; a request from an older one is stale. */
  generation: number;
  /** The thread sequence number of its last event. */
  lastThreadSeq: number;
  /**
   * The thread's CLI process while it may be running (from its spawn until it is known gone), so that a
   * host restarted after a crash can find what the previous one left.
   */
  cliProcess: CliProcess | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Identifies one CLI process: its pid and its start time (`/proc/<pid>/stat` field 22, clock ticks since
 * boot; null where that cannot be read). A pid alone can name another process once it is reused.
 */
export interface CliProcess {
  pid: number;
  startTime: number | null;
  generation: number;
  /**
   * A detached process (it outlives the host): the directory of its input pipe and output spool, and
   * the marker in its environment. Null for a piped child, which dies with its host.
   */
  spoolDir: string | null;
  marker: string | null;
  /** How far into the spool the host has processed, committed with the events those frames produced. */
  spoolOffset: number;
}

/** The turn's `result`, reduced to what the supervisor and a UI need. */
export interface RunResult {
  subtype: string;
  isError: boolean;
  text: string | null;
  numTurns: number | null;
  terminalReason: string | null;
  apiErrorStatus: number | null;
  /** The CLI's running total for its process (not this turn alone), in USD. */
  totalCostUsd: number | null;
  durationMs: number | null;
  /** The CLI's `usage` of the turn. Absent in results recorded before it was kept. */
  usage?: TokenUsage | null;
  /**
   * The CLI's `modelUsage`: per model, the process's totals so far. A turn's share is the difference from
   * the previous result of the same process. Absent in results recorded before it was kept.
   */
  modelUsage?: Record<string, TokenUsage & { costUsd: number | null }> | null;
}

/** Token counts as the CLI reports them. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
}

export interface RunRecord {
  id: string;
  threadId: string;
  status: RunStatus;
  /**
   * Who started the turn: `human` for send(), otherwise the CLI's `result.origin.kind` (e.g.
   * `task-notification`); `cli` until the result of a CLI-started turn says more.
   */
  trigger: string;
  origin: Record<string, unknown> | null;
  prompt: string | null;
  /** The `uuid` set on the user message, echoed by the CLI in `user_message_uuid(s)`. */
  userMessageId: string | null;
  generation: number;
  result: RunResult | null;
  /** Why it failed or was interrupted (`interrupted`, `thread_stopped`, `process_exited`, `host_restart`…). */
  reason: string | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  /** Set once the run has ended and none of its subagents runs: nothing can be routed to it any more. */
  releasedAt: string | null;
}

export interface SubagentRecord {
  /** The CLI's `task_id` (what `can_use_tool.agent_id` carries). */
  id: string;
  threadId: string;
  /** The run that was active when it started; it owns the subagent's permission requests. */
  runId: string;
  toolUseId: string | null;
  description: string | null;
  taskType: string | null;
  status: SubagentStatus;
  summary: string | null;
  reason: string | null;
  generation: number;
  startedAt: string;
  endedAt: string | null;
}

/**
 * Through what a decision came: the web UI (a browser session), the terminal (`warden run`), the HTTP API
 * (a Bearer token), a notification's action link, the policy (a mode or rule), a deadline, or Warden
 * itself (a cancellation or expiry).
 */
export type DecisionVia = 'web' | 'terminal' | 'api' | 'webhook' | 'policy' | 'timeout' | 'host';

/** Who made a decision: a named decider (`owner` for the server token's holder) and through what. */
export interface DecidedBy {
  name: string;
  via: DecisionVia;
}

export interface ApprovalDecision {
  behavior: DecisionBehavior;
  message: string | null;
  interrupt: boolean;
  /**
   * What the CLI was told besides the answer: with an `allow_always` of the session or project scope, one
   * `addRules` update of the rules granted (destination `session` or `localSettings`); a plan's end sets
   * the mode. Null otherwise (a thread-scope grant is Warden's own: the CLI is not told).
   */
  updatedPermissions: unknown[] | null;
  /**
   * `user` through decide(); `webhook` through decide() from a notification's action link; `policy` when a
   * mode change settled it; `timeout` when its deadline did.
   */
  by: 'user' | 'policy' | 'webhook' | 'timeout';
  /**
   * The input the CLI was sent when it is not the one it asked with: a person edited it, or answered
   * questions (`answers`). Absent or null: the input as asked.
   */
  updatedInput?: Record<string, unknown> | null;
  /** Who decided and through what; absent on decisions recorded before deciders were named. */
  decidedBy?: DecidedBy;
  /** With allow_always: what it added and where; absent on decisions recorded before it was kept. */
  grant?: DecisionGrant;
  /** A two-person approval's allow: who allowed it first (the decision is the second allow). */
  endorsedBy?: DecidedBy;
}

/** A first allow of a two-person approval: who gave it and when; it answers nobody by itself. */
export interface Endorsement {
  decidedBy: DecidedBy;
  at: string;
}

export interface ApprovalRecord {
  id: string;
  threadId: string;
  runId: string;
  subagentId: string | null;
  toolName: string;
  input: Record<string, unknown>;
  toolUseId: string;
  requestId: string;
  /** What the CLI suggested; shown for information, never sent back as it came. */
  suggestions: unknown[];
  /**
   * The exact rules an `allow_always` offers, as `Tool(content)`; the person may grant them, some of them
   * or narrower ones, for the scope they pick (`decision.grant`). Empty: allow_always is not offered.
   */
  alwaysAllowRules: string[];
  blockedPath: string | null;
  decisionReason: string | null;
  generation: number;
  /** Answered by itself at this time, unless someone answers first (null: it waits as long as it takes). */
  deadline: ApprovalDeadline | null;
  /** Its risks and escalation (null on approvals recorded before routing existed). */
  routing: ApprovalRouting | null;
  /**
   * Why two different deciders must allow it (a two-person rule, docs/decisions.md#two-person-rules), e.g.
   * `protected write: .git/config`; null: one allow answers it. Fixed when it is requested.
   */
  twoPerson: string | null;
  /** The allows recorded that did not answer it yet: a two-person approval's first (at most one). */
  endorsements: Endorsement[];
  status: ApprovalStatus;
  decision: ApprovalDecision | null;
  /** Why it was cancelled or expired. */
  reason: string | null;
  createdAt: string;
  settledAt: string | null;
}

/** In a fleet, the host that runs a thread, as every host's API shows it (derived from the host registry). */
export interface ThreadHost {
  readonly name: string;
  /** False once its lease has expired: nothing it held (a pending approval, a run) is answered until it is back. */
  readonly reachable: boolean;
  /** Its last heartbeat (null: it never registered). */
  readonly lastSeen: string | null;
}

/** A thread as a read-only reader lists it (`warden status`): with how many approvals wait on it. */
export interface ThreadSummary {
  readonly thread: ThreadRecord;
  readonly pendingApprovals: number;
}
