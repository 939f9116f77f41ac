// The supervisor's public types: how it is opened, what callers pass in, what they get back.
import type { ApprovalRoute } from './approvals/routes.js';
import type { RouteTimers } from './approvals/route-timers.js';
import type { WardenError } from '../protocol/errors.js';
import type { SDKMessage, SDKUserMessage } from '../protocol/messages.js';
import type { Options } from '../session/options.js';
import type { StoredEvent } from '../store/event-types.js';
import type { FleetHostOptions } from '../store/host-registry.js';
import type { LeftRunning } from './durable/detached-idle.js';
import type {
  AgentKind,
  ApprovalRecord,
  DecidedBy,
  DecisionBehavior,
  GrantScope,
  RunRecord,
  SubagentRecord,
  ThreadMode,
  ThreadRecord,
} from '../store/records.js';

/** The part of the SDK's Query the supervisor uses; query() from 'warden' satisfies it. */
export interface SupervisedQuery extends AsyncIterable<SDKMessage> {
  interrupt(): Promise<unknown>;
  stopTask(taskId: string): Promise<void>;
  close(): void;
  /** Settles when the CLI process is gone (Warden's query has it; a scripted stand-in may not). */
  readonly closed?: Promise<void>;
  /** The CLI's pid once spawned, undefined if it never was (Warden's query has it). */
  readonly pid?: Promise<number | undefined>;
  /** Lets go of the CLI without ending it (Warden's query, over a transport that can). */
  detach?(): void;
  /** The request ids the initialize answer re-delivered (Warden's query has it). */
  redeliveredRequests?(): Promise<string[]>;
}

export type QueryFunction = (args: {
  prompt: AsyncIterable<SDKUserMessage>;
  options: Options;
}) => SupervisedQuery;

export interface SupervisorOptions {
  /**
   * This host's private directory, created if missing: the SQLite database (`<dataDir>/warden.db`) unless
   * `store` names another, the detached CLIs' spools, keys.
   */
  dataDir: string;
  /**
   * Where the event log lives: absent, SQLite in `dataDir`; a `postgres://user@host:port/db` URL, that
   * PostgreSQL database (docs/fleet.md). The supervisor holds it alone while open, as it does SQLite.
   */
  store?: string;
  /**
   * With `store`: this host's place in a fleet sharing that database (docs/fleet.md). It registers under
   * `name` and keeps a lease by heartbeat; it runs, recovers and re-attaches only the threads it created;
   * decisions other hosts record for its threads reach its CLIs. Without it, the supervisor holds the
   * store alone.
   */
  host?: FleetHostOptions;
  /** The Claude Code executable; found as query() finds it when absent. */
  claudePath?: string;
  /** The CLI's whole environment (it replaces process.env, as query()'s `env` does). */
  env?: Record<string, string | undefined>;
  /**
   * How the Codex app-server of threads with `agent: 'codex'` is started: its binary (default: the
   * pinned one, or WARDEN_CODEX_EXECUTABLE), its whole environment (default: `env`; give it CODEX_HOME
   * and the key its model provider reads), and `-c key=value` overrides (docs/agents.md).
   */
  codex?: { codexPath?: string; env?: Record<string, string | undefined>; config?: string[] };
  /** Problems that are not fatal: a warning from a session, an event that could not be recorded. */
  onWarning?: (warning: WardenError) => void;
  /** Replaces query() (tests drive the supervisor with a scripted stand-in). */
  query?: QueryFunction;
  /**
   * Run each thread's CLI detached (default true): it outlives this host, which leaves it running at
   * close() (unless `stopAgents`) or when it crashes, and the next open() of the dataDir re-attaches to
   * it with its pending approvals. False: a piped child that ends with the host (a leftover one is
   * stopped at open, as is a detached one left by an earlier host). A custom `query` that does not use
   * the `cliTransport` option it is given runs its CLI its own way.
   */
  detached?: boolean;
  /**
   * Park a thread's CLI after it has had nothing to do for this long, in milliseconds (default 600000,
   * ten minutes; `0` or `Infinity`: never). Nothing to do: no turn running or queued, no subagent or
   * background task running, no approval or permission request pending, no request to the CLI in flight.
   * Parking stops the CLI (`thread.parked`, status `parked`); the next send resumes its session.
   */
  idleParkMs?: number;
  /**
   * After how many approvals of the same kind a pending approval's card offers a rule that covers them
   * (`suggestRule()`, src/policy/suggest.ts; default 3; `0`: never).
   */
  suggestRulesAfter?: number;
  /**
   * A sandbox for the CLIs' Bash commands, with the protected paths unwritable by the operating system
   * (docs/security.md): on Linux Warden's own bubblewrap prefix, on macOS the CLI's own sandbox.
   * `auto` (default): on where it can run, and where it cannot a warning (SandboxUnavailableError),
   * `sandbox.enforced` false and a stricter policy; `required`: open() refuses (SandboxUnavailableError)
   * where it cannot run; `off`: not used (the policy is then the stricter one too). Not given: the
   * `WARDEN_SANDBOX` environment variable of the host's process when set, else `auto`.
   */
  sandbox?: 'auto' | 'required' | 'off';
  /**
   * How long a detached CLI that close() let go of idle lives with no host, in milliseconds (default
   * 1800000, thirty minutes; `0` or `Infinity`: until a host takes it back). Past it, the CLI's watchdog
   * ends it, and the next open() records the thread parked (`thread.parked`, reason `detached_idle`): its
   * next send resumes the session. A CLI that was not idle when let go (a turn, a subagent or background
   * task, an approval or question waiting for a person) has no such limit: it waits for the next host.
   * Whatever its state, a detached CLI ends within seconds once its spool directory (under `dataDir`) is
   * removed. close() says what it left running and until when.
   */
  detachedIdleMs?: number;
  /**
   * What happens to an approval nobody answers: the first route that covers it reminds those who may
   * answer after `remindAfterMs`, then lets the deciders of `to` answer too after `escalateAfterMs`, each
   * step an event and an audit record, kept across restarts (docs/decisions.md, *Roles, routing,
   * escalation*). Who may answer is the server's to say, from the deciders' scopes.
   */
  routes?: ApprovalRoute[];
  /** The clock the routes' steps wait on (default: real timers); a test passes one it moves by hand. */
  routeClock?: RouteTimers;
  /**
   * Two-person rules (docs/decisions.md#two-person-rules): approvals that need the allows of two
   * different deciders before the CLI hears allow. `protected-writes`, `full-access` (every approval of a
   * full-access thread) and rule patterns (`Bash(git push:*)`, matched as deny rules are). Fixed on each
   * approval when it is requested, by the host that runs its thread. Default: none.
   */
  requireTwo?: string[];
}

/** What close() did: the detached CLIs it left running (empty when it ended them all). */
export interface CloseResult {
  readonly leftRunning: readonly LeftRunning[];
}

export interface CloseOptions {
  /**
   * End every live CLI (runs interrupted, approvals cancelled: `host_closed`). Default false: detached
   * CLIs are left running, with their approvals pending and their runs going on, for the next open();
   * the others are ended.
   */
  stopAgents?: boolean;
}

export interface NewThread {
  /** The CLI's working directory: an existing directory. */
  cwd: string;
  /** The agent CLI the thread runs: `claude` (Claude Code, the default) or `codex` (docs/agents.md). */
  agent?: AgentKind;
  mode: ThreadMode;
  model?: string;
  /** A name for the thread; without one it is named by the first line of its first prompt. */
  title?: string;
  /** Allow and deny patterns, e.g. `{ allow: ['Bash(git status:*)'], deny: ['Read(/etc/*)'] }`. */
  rules?: { allow?: string[]; deny?: string[] };
  /**
   * Answer approvals nobody answers in time: `afterMs` denies; a rule's entry may allow the calls it
   * covers (`{ rule: 'Bash(npm test:*)', afterMs: 600000, behavior: 'allow' }`). See deadlines.ts.
   */
  deadlines?: {
    afterMs?: number | null;
    rules?: { rule: string; afterMs: number; behavior: 'allow' | 'deny' }[];
  };
  /**
   * Start the CLI in plan mode: it reads and plans but changes nothing until a person approves its plan
   * (an `ExitPlanMode` approval). Default false.
   */
  plan?: boolean;
  /**
   * In a fleet: the host to run the thread (it must be live, reach the cwd and have room). Without it the
   * thread runs here, or on another live host that reaches the cwd and has room (docs/fleet.md).
   */
  host?: string;
}

export interface Decision {
  behavior: DecisionBehavior;
  /** Shown to the model on a deny (a default is used when absent). */
  message?: string;
  /** With deny: also stop the turn, as if the user pressed Escape. */
  interrupt?: boolean;
  /**
   * With allow: the input to run instead of the one asked with (a person edited it). The same tool's
   * input: an object, at most 256 KiB as JSON; the thread's policy judges it again, and a deny there
   * refuses the decision. Never with allow_always: a rule is never made from an edited input.
   */
  updatedInput?: Record<string, unknown>;
  /**
   * With allow, for an `AskUserQuestion` approval: the answer to each question, by its text. One option's
   * label, several labels joined by `, ` (multiSelect), or a person's own words.
   */
  answers?: Record<string, string>;
  /**
   * With allow, for an `ExitPlanMode` approval: the thread's mode from now on. The CLI leaves plan mode
   * for its `default` mode either way (Warden's policy then decides, in this mode).
   */
  mode?: ThreadMode;
  /**
   * With allow_always: how long the rules hold — `session` (default: this CLI session), `thread` (a
   * Warden rule of the thread, until removed) or `project` (the CLI writes `.claude/settings.local.json`).
   */
  scope?: GrantScope;
  /** With allow_always: the rules to add — the approval's `alwaysAllowRules`, some of them, or narrower. */
  rules?: string[];
  /** Where the answer came from, for the record (`approval.decided`'s `by`); default `user`. */
  by?: 'user' | 'webhook' | 'timeout';
  /**
   * Who decided and through what, for the record and the audit trail. Default: from `by` — the owner
   * through the API, or a webhook link.
   */
  decidedBy?: DecidedBy;
}

export interface ThreadView {
  thread: ThreadRecord;
  runs: RunRecord[];
  subagents: SubagentRecord[];
  approvals: ApprovalRecord[];
}

/** One entry of the log: `{ seq (global), threadId, threadSeq, type, at, data }`. */
export type SupervisorEvent = StoredEvent;

export interface EventsOptions {
  threadId?: string;
  /** Replay events after this global seq (default 0: everything), then follow live. */
  since?: number;
  /** Ends the iteration when aborted. */
  signal?: AbortSignal;
}
