// @ts-check
// The HTTP API, one function per call. Same origin, so the login cookie goes along by itself. A failed
// call throws ApiError carrying the HTTP status and the server's `{error: {code, message}}`.

/** @import { ApprovalItem, ApprovalRecord, BatchLeftOut, Decision, GrantScope, ThreadDeadlines, NewThreadInput, StoredEvent, ThreadListItem, ThreadMode, ThreadRecord, ThreadView, HostRecord } from './types.js' */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function call(method, path, body) {
  /** @type {RequestInit} */
  const init = { method, headers: { accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (cause) {
    throw new ApiError(0, 'NETWORK', `The server cannot be reached (${String(cause)})`);
  }
  const text = await response.text();
  /** @type {any} */
  let json = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  if (!response.ok) {
    const error = json?.error;
    throw new ApiError(
      response.status,
      typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`,
      typeof error?.message === 'string' ? error.message : `${method} ${path}: ${response.status}`,
    );
  }
  return json;
}

/**
 * Threads for the sidebar, and the newest event seq at the time: where the live stream starts.
 * @returns {Promise<{ threads: ThreadListItem[], lastSeq: number }>}
 */
export async function listThreads() {
  const json = await call('GET', '/api/threads');
  return { threads: json?.threads ?? [], lastSeq: json?.lastSeq ?? 0 };
}

/**
 * The hosts of a fleet and their leases (none outside a fleet).
 * @returns {Promise<HostRecord[]>}
 */
export async function listHosts() {
  const json = await call('GET', '/api/hosts');
  return json?.hosts ?? [];
}

/**
 * @param {string} threadId
 * @returns {Promise<ThreadView>}
 */
export function getThread(threadId) {
  return call('GET', `/api/threads/${encodeURIComponent(threadId)}`);
}

/**
 * All of the thread's events after `since` (a global seq), page by page.
 * @param {string} threadId
 * @param {number} since
 * @returns {Promise<StoredEvent[]>}
 */
export async function threadEvents(threadId, since) {
  /** @type {StoredEvent[]} */
  const events = [];
  for (let cursor = since; ;) {
    const json = await call(
      'GET',
      `/api/threads/${encodeURIComponent(threadId)}/events?since=${cursor}&limit=1000`,
    );
    const page = Array.isArray(json?.events) ? json.events : [];
    events.push(...page);
    const next = typeof json?.lastSeq === 'number' ? json.lastSeq : (page.at(-1)?.seq ?? cursor);
    if (json?.more !== true || page.length === 0 || next <= cursor) return events;
    cursor = next;
  }
}

/** @returns {Promise<import('../src/server/api-schema.js').InfoResponse | null>} what the server says of itself, if it answers */
export async function info() {
  try {
    return await call('GET', '/api/info');
  } catch {
    return null;
  }
}

/**
 * @param {NewThreadInput} input
 * @returns {Promise<ThreadRecord>}
 */
export async function createThread(input) {
  const json = await call('POST', '/api/threads', input);
  return json.thread;
}

/**
 * @param {string} threadId
 * @param {string} text
 */
export function sendMessage(threadId, text) {
  return call('POST', `/api/threads/${encodeURIComponent(threadId)}/messages`, { text });
}

/** @param {string} threadId */
export function interruptThread(threadId) {
  return call('POST', `/api/threads/${encodeURIComponent(threadId)}/interrupt`);
}

/** @param {string} threadId */
export function stopThread(threadId) {
  return call('POST', `/api/threads/${encodeURIComponent(threadId)}/stop`);
}

/**
 * @param {string} threadId
 * @param {string} subagentId
 */
export function stopSubagent(threadId, subagentId) {
  return call(
    'POST',
    `/api/threads/${encodeURIComponent(threadId)}/subagents/${encodeURIComponent(subagentId)}/stop`,
  );
}

/**
 * @param {string} threadId
 * @param {ThreadMode} mode
 * @returns {Promise<ThreadRecord>}
 */
export async function setMode(threadId, mode) {
  const json = await call('PATCH', `/api/threads/${encodeURIComponent(threadId)}`, { mode });
  return json?.thread ?? json;
}

/**
 * @param {string} threadId
 * @param {string} title
 * @returns {Promise<ThreadRecord>}
 */
export async function renameThread(threadId, title) {
  const json = await call('PATCH', `/api/threads/${encodeURIComponent(threadId)}`, { title });
  return json?.thread ?? json;
}

/** @returns {Promise<{ approvals: ApprovalItem[], lastSeq: number }>} */
export async function pendingApprovals() {
  const json = await call('GET', '/api/approvals?status=pending');
  return { approvals: json?.approvals ?? [], lastSeq: json?.lastSeq ?? 0 };
}

/** @returns {Promise<{ decider: string, role: string | null }>} who this page is signed in as */
export function whoAmI() {
  return call('GET', '/api/session');
}

/**
 * One approval as the inbox lists it (with who may answer it now).
 * @param {string} approvalId
 * @returns {Promise<ApprovalItem | undefined>}
 */
export async function approval(approvalId) {
  const json = await call('GET', `/api/approvals/${encodeURIComponent(approvalId)}`);
  return json?.approval;
}

/**
 * @param {string} approvalId
 * @param {Decision} decision
 */
export function decide(approvalId, decision) {
  return call('POST', `/api/approvals/${encodeURIComponent(approvalId)}/decision`, decision);
}

/**
 * The rule a pending approval's card offers, with what it would have done in the thread so far; null:
 * none (docs/decisions.md, "Rule suggestions").
 * @param {string} approvalId
 * @returns {Promise<{ rule: string, approvals: number, simulation: { text: string } } | null>}
 */
export async function ruleSuggestion(approvalId) {
  const json = await call('GET', `/api/approvals/${encodeURIComponent(approvalId)}/suggestion`);
  return json?.suggestion ?? null;
}

/**
 * Adds allow rules to the thread, until removed (as an always-allow of the thread's scope).
 * @param {string} threadId
 * @param {string[]} rules
 * @returns {Promise<ThreadRecord>}
 */
export async function grantRules(threadId, rules) {
  const json = await call('POST', `/api/threads/${encodeURIComponent(threadId)}/rules`, { rules });
  return json.thread;
}

/**
 * Removes a rule granted for the thread or its CLI session (a project rule lives in the project's file).
 * @param {string} threadId
 * @param {string} rule
 * @param {Exclude<GrantScope, 'project'>} scope
 * @returns {Promise<ThreadRecord>}
 */
export async function revokeRule(threadId, rule, scope) {
  const json = await call('DELETE', `/api/threads/${encodeURIComponent(threadId)}/rules`, { rule, scope });
  return json.thread;
}

/**
 * Replaces the thread's deadlines (approvals already pending keep theirs).
 * @param {string} threadId
 * @param {{ afterMs: number | null, rules: ThreadDeadlines['rules'] }} deadlines
 * @returns {Promise<ThreadRecord>}
 */
export async function setDeadlines(threadId, deadlines) {
  const json = await call('PUT', `/api/threads/${encodeURIComponent(threadId)}/deadlines`, deadlines);
  return json.thread;
}

/** @typedef {{ threadId?: string, subagentId?: string, rule?: string }} BatchSelect */

/**
 * The pending approvals one answer would cover.
 * @param {BatchSelect} select
 * @param {'allow' | 'deny'} behavior
 * @returns {Promise<{ approvals: ApprovalRecord[], leftOut: BatchLeftOut[] }>}
 */
export async function previewBatch(select, behavior) {
  const json = await call('POST', '/api/approvals/batch/preview', { select, behavior });
  return { approvals: json?.approvals ?? [], leftOut: json?.leftOut ?? [] };
}

/**
 * Answers exactly `approvalIds` (a preview's), each on its own; says which were settled meanwhile.
 * @param {{ approvalIds: string[], behavior: 'allow' | 'deny', message?: string }} batch
 * @returns {Promise<{ decided: ApprovalRecord[], alreadySettled: { id: string, status: string }[], leftOut: BatchLeftOut[] }>}
 */
export function decideBatch(batch) {
  return call('POST', '/api/approvals/batch', batch);
}

/**
 * What a policy change would have decided for the recorded requests (docs/decisions.md); nothing changes.
 * @param {{ scope: 'all' | { threadId: string } | { cwd: string }, change: { allow?: string[], deny?: string[], remove?: string[] }, limit?: number }} request
 * @returns {Promise<{ summary: { requests: number, changed: number, asksAllowed: number, deniedAsksAllowed: number }, text: string }>}
 */
export function simulatePolicy(request) {
  return call('POST', '/api/policy/simulate', { limit: 0, ...request });
}
