// The response bodies the routes send, built from the supervisor's records. Kept apart from the routes so
// the shapes in api-schema.ts have one place that fills them.
import { buildTimeline, type Supervisor } from '../supervisor/index.js';
import type { ApprovalRecord, ApprovalStatus, ThreadRecord } from '../store/records.js';
import type { ApprovalItem, ThreadDetailResponse, ThreadListItem } from './api-schema.js';
import { readThreadEvents } from './event-reader.js';

export function threadListItem(supervisor: Supervisor, thread: ThreadRecord): ThreadListItem {
  const { runs, subagents, approvals } = supervisor.getThread(thread.id);
  return {
    ...thread,
    host: supervisor.threadHosts([thread.id]).get(thread.id) ?? null,
    pendingApprovals: approvals.filter((a) => a.status === 'pending').length,
    busy:
      runs.some((run) => run.status === 'queued' || run.status === 'running') ||
      subagents.some((subagent) => subagent.status === 'running'),
  };
}

/** Newest first: the inbox and the sidebar show what happened last on top. */
export function listThreads(supervisor: Supervisor): ThreadListItem[] {
  return supervisor
    .listThreads()
    .map((thread) => threadListItem(supervisor, thread))
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

export function approvalItems(
  supervisor: Supervisor,
  filter: { status?: ApprovalStatus; threadId?: string },
): ApprovalItem[] {
  const approvals = supervisor.listApprovals(filter);
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
    return { ...approval, subagentDescription: description, cwd, threadTitle: title, host };
  });
}
