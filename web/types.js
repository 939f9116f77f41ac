// @ts-check
// The shapes the server sends and takes, as JSDoc types for `tsc -p web`: the server's own definitions
// (its records, its events, its API contract), imported as types only — nothing here is loaded by the page.
// Those files import nothing from Node (tsc -p web has no Node types and fails if one starts to).
//
// A record the page folds from live events lacks the fields no event carries and the page never reads;
// `Known` keeps those optional, so the page's records are the server's with nothing invented.

/**
 * @template T
 * @template {keyof T} K
 * @typedef {Omit<T, K> & Partial<Pick<T, K>>} Known
 */

/** @typedef {import('../src/store/event-types.js').StoredEvent} StoredEvent */
/** @typedef {import('../src/store/records.js').ThreadMode} ThreadMode */
/** @typedef {import('../src/store/records.js').GrantScope} GrantScope */
/** @typedef {import('../src/store/records.js').GrantedRule} GrantedRule */
/** @typedef {import('../src/store/records.js').ThreadDeadlines} ThreadDeadlines */
/** @typedef {import('../src/store/records.js').ApprovalDeadline} ApprovalDeadline */
/** @typedef {import('../src/store/records.js').ThreadHost} ThreadHost */

/** @typedef {Known<import('../src/store/records.js').ThreadRecord, 'title' | 'rules' | 'sessionId' | 'generation' | 'cliProcess'>} ThreadRecord */
/** @typedef {Known<import('../src/store/records.js').RunRecord, 'origin' | 'userMessageId' | 'generation' | 'result' | 'startedAt'>} RunRecord */
/** @typedef {Known<import('../src/store/records.js').SubagentRecord, 'taskType' | 'reason' | 'generation'>} SubagentRecord */
/** @typedef {Known<import('../src/store/records.js').ApprovalRecord, 'requestId' | 'suggestions' | 'generation' | 'decision' | 'settledAt' | 'routing'>} ApprovalRecord */

/** @typedef {import('../src/server/api-schema.js').ThreadListItem} ServerThreadListItem */
/** @typedef {import('../src/server/api-schema.js').ApprovalItem} ServerApprovalItem */
/** @typedef {ThreadRecord & Partial<Pick<ServerThreadListItem, 'pendingApprovals' | 'busy' | 'host'>>} ThreadListItem */
/** @typedef {ApprovalRecord & Partial<Pick<ServerApprovalItem, 'subagentDescription' | 'cwd' | 'threadTitle' | 'host' | 'answerableBy'>>} ApprovalItem */
/** @typedef {Omit<import('../src/server/api-schema.js').ThreadDetailResponse, 'timeline' | 'lastSeq'>} ThreadView */
/** @typedef {import('../src/server/api-schema.js').DecisionRequest} Decision */
/** @typedef {import('../src/supervisor/approvals/batch-left-out.js').BatchLeftOut} BatchLeftOut */
/** @typedef {import('../src/server/api-schema.js').CreateThreadRequest} NewThreadInput */

/** @typedef {import('../src/store/host-registry.js').HostRecord} HostRecord */

export {};
