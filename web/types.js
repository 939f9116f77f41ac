// @ts-check
// The shapes the server sends, as JSDoc types for the editor and `tsc --checkJs`. They mirror the
// supervisor's records (src/store/records.ts) and events (src/store/event-types.ts); keep them in step.

/** @typedef {'supervised' | 'auto-edits' | 'full-access'} ThreadMode */

/**
 * @typedef {object} ThreadRecord
 * @property {string} id
 * @property {string} cwd
 * @property {string | null} [title] a name given, or the first line of the first prompt (one safe line)
 * @property {ThreadMode} mode
 * @property {string | null} model
 * @property {'idle' | 'live' | 'stopping' | 'parked'} status parked: no CLI while idle; the next message resumes it
 * @property {string | null} [sessionId] the CLI session the thread is in (session-scope rules hold in it)
 * @property {GrantedRule[]} [grants] rules granted with "always allow" for the session, thread or project
 * @property {ThreadDeadlines} [deadlines] when unanswered approvals are answered by themselves
 * @property {number} lastThreadSeq
 * @property {string} createdAt
 * @property {string} updatedAt
 */

/** @typedef {'session' | 'thread' | 'project'} GrantScope */

/**
 * A rule a person granted with "always allow".
 * @typedef {object} GrantedRule
 * @property {string} rule
 * @property {GrantScope} scope
 * @property {string | null} sessionId for `session`: the CLI session it holds in
 * @property {string | null} approvalId the approval it was granted with
 * @property {string} grantedAt
 */

/**
 * "If unanswered after N ms": a default that denies, and rules that may allow.
 * @typedef {object} ThreadDeadlines
 * @property {number | null} afterMs
 * @property {{ rule: string, afterMs: number, behavior: 'allow' | 'deny' }[]} rules
 */

/**
 * When a pending approval is answered by itself, and how; `rule` null for the thread's default.
 * @typedef {{ at: string, behavior: 'allow' | 'deny', rule: string | null }} ApprovalDeadline
 */

/**
 * @typedef {object} RunRecord
 * @property {string} id
 * @property {string} threadId
 * @property {'queued' | 'running' | 'completed' | 'failed' | 'interrupted'} status
 * @property {string} trigger `human`, `cli`, or the CLI's origin kind such as `task-notification`
 * @property {string | null} prompt
 * @property {string | null} reason
 * @property {string} createdAt
 * @property {string | null} endedAt
 * @property {string | null} releasedAt
 */

/**
 * @typedef {object} SubagentRecord
 * @property {string} id
 * @property {string} threadId
 * @property {string} runId
 * @property {string | null} toolUseId
 * @property {string | null} description
 * @property {'running' | 'completed' | 'failed' | 'stopped' | 'lost'} status
 * @property {string | null} summary
 * @property {string} startedAt
 * @property {string | null} endedAt
 */

/**
 * @typedef {object} ApprovalRecord
 * @property {string} id
 * @property {string} threadId
 * @property {string} runId
 * @property {string | null} subagentId
 * @property {string} toolName
 * @property {Record<string, unknown>} input
 * @property {string} toolUseId
 * @property {string | null} blockedPath
 * @property {string | null} decisionReason
 * @property {'pending' | 'allowed' | 'denied' | 'cancelled' | 'expired'} status
 * @property {string | null} reason
 * @property {string} createdAt
 * @property {string[]} [alwaysAllowRules] the rules "Always allow" offers (a person may narrow them);
 *   empty or missing when it adds none (then it is not offered)
 * @property {ApprovalDeadline | null} [deadline] answered by itself then, unless someone answers first
 * @property {{ behavior: string, by?: string, message?: string | null } | null} [decision] how it was settled
 */

/**
 * A row of the thread list: the record plus what a sidebar shows.
 * @typedef {ThreadRecord & { pendingApprovals: number, busy: boolean, host?: ThreadHost | null }} ThreadListItem
 */

/**
 * In a fleet, the host that runs a thread; `reachable` is false once its lease expired.
 * @typedef {{ name: string, reachable: boolean, lastSeen: string | null }} ThreadHost
 */

/**
 * A host of a fleet as `GET /api/hosts` lists it.
 * @typedef {{ name: string, live: boolean, heartbeatAt: string }} HostRecord
 */

/**
 * A pending approval as the inbox endpoint sends it: with its thread's folder and its subagent's name.
 * @typedef {ApprovalRecord & { subagentDescription?: string | null, cwd?: string, threadTitle?: string | null, host?: ThreadHost | null }} ApprovalItem
 */

/**
 * @typedef {object} ThreadView
 * @property {ThreadRecord} thread
 * @property {RunRecord[]} runs
 * @property {SubagentRecord[]} subagents
 * @property {ApprovalRecord[]} approvals
 * @property {ThreadHost | null} [host] in a fleet, the host that runs the thread
 */

/** @typedef {import('../src/store/event-types.js').StoredEvent} StoredEvent */

/**
 * @typedef {object} Decision
 * @property {'allow' | 'allow_always' | 'deny'} behavior
 * @property {string} [message]
 * @property {boolean} [interrupt]
 * @property {Record<string, unknown>} [updatedInput] with allow: the input a person edited, run instead
 * @property {Record<string, string>} [answers] with allow, for AskUserQuestion: the answers by question
 * @property {ThreadMode} [mode] with allow, for ExitPlanMode: the thread's mode from now on
 * @property {GrantScope} [scope] with allow_always: how long the rules hold
 * @property {string[]} [rules] with allow_always: the rules shown, some of them, or narrower ones
 */

/**
 * @typedef {object} NewThreadInput
 * @property {string} cwd
 * @property {ThreadMode} mode
 * @property {string} [model]
 * @property {string} [prompt]
 * @property {boolean} [plan] start the CLI in plan mode
 * @property {{ afterMs?: number | null, rules?: ThreadDeadlines['rules'] }} [deadlines] answer unanswered
 *   approvals by themselves
 */

export {};
