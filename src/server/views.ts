// The response bodies the routes send, built from the supervisor's records. Kept apart from the routes so
// the shapes in api-schema.ts have one place that fills them.
import { buildTimeline, type Supervisor } from '../supervisor/index.js';
import type { ApprovalRecord, ApprovalStatus } from '../store/records.js';
import type { ApprovalItem, ThreadDetailResponse, ThreadListItem } from './api-schema.js';
import { answerersOf } from './answerers.js';
import type { DeciderTokens } from './deciders.js';
import { readThreadEvents } from './event-reader.js';

/**
 * Newest first: the inbox and the sidebar show what happened last on top. Read in a few passes over what
 * is pending now, not each thread's whole history: the list is polled and the history only grows.
 */
export function listThreads(supervisor: Supervisor): ThreadListItem[] {
  const threads = supervisor.listThreads();
  const hosts = supervisor.threadHosts(threads.map((thread) => thread.id));
  const pending = new Map<string, number>();
  for (const approval of supervisor.listApprovals({ status: 'pending' }))
    pending.set(approval.threadId, (pending.get(approval.threadId) ?? 0) + 1);
  return threads
    .map((thread): ThreadListItem => ({
      ...thread,
      host: hosts.get(thread.id) ?? null,
      pendingApprovals: pending.get(thread.id) ?? 0,
      busy: supervisor.isBusy(thread.id),
    }))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/**
 * The thread's records and its conversation, read in one synchronous step: the records, the timeline and
 * `lastSeq` describe the same moment, and a client continuing from `lastSeq` misses nothing.
 */
export function threadDetail(supervisor: Supervisor, threadId: string): ThreadDetailResponse {
  const view = supervisor.getThread(threadId); // a 404 before anything else
  const events = readThreadEvents(supervisor, threadId);
  const host = supervisor.threadHosts([threadId]).get(threadId) ?? null;
  return { ...view, timeline: buildTimeline(events), host, lastSeq: events.at(-1)?.seq ?? 0 };
}

/** With no `deciders` (a reader without a server), none is listed as answering. */
export function approvalItems(
  supervisor: Supervisor,
  filter: { status?: ApprovalStatus; threadId?: string } | { id: string },
  deciders?: DeciderTokens,
): ApprovalItem[] {
  const approvals = 'id' in filter ? [supervisor.getApproval(filter.id)] : supervisor.listApprovals(filter);
  const hosts = supervisor.threadHosts(new Set(approvals.map((approval) => approval.threadId)));
  const threads = new Map<
    string,
    { cwd: string; title: string | null; descriptions: Map<string, string | null> }
  >();
  const context = (approval: ApprovalRecord) => {
    let entry = threads.get(approval.threadId);
    if (entry === undefined) {
      const view = supervisor.getThread(approval.threadId);
      entry = {
        cwd: view.thread.cwd,
        title: view.thread.title,
        descriptions: new Map(view.subagents.map((s) => [s.id, s.description])),
      };
      threads.set(approval.threadId, entry);
    }
    return entry;
  };
  return approvals.map((approval) => {
    const { cwd, title, descriptions } = context(approval);
    const description = approval.subagentId === null ? null : (descriptions.get(approval.subagentId) ?? null);
    const host = hosts.get(approval.threadId) ?? null;
    const answerableBy = deciders === undefined ? [] : answerersOf(deciders, approval, cwd);
    return { ...approval, subagentDescription: description, cwd, threadTitle: title, host, answerableBy };
  });
}
