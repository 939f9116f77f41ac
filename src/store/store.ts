// The Store: an append-only event log plus the projections folded from it. Synchronous on purpose: every
// change is one transaction that appends its events and updates the projections, with no await inside,
// so nothing is ever written half and no other change interleaves.
import type { AuditRow } from './audit-chain.js';
import type { AuditQuery } from './audit-log.js';
import type { EventDraft, EventText, EventType, StoredEvent } from './event-types.js';
import type { HostRegistry } from './host-registry.js';
import type { ApprovalRecord, ApprovalStatus, RunRecord, SubagentRecord, ThreadRecord } from './records.js';

export interface ApprovalFilter {
  status?: ApprovalStatus;
  threadId?: string;
  runId?: string;
}

export interface EventQuery {
  /** Only events with a global `seq` greater than this (default 0: from the start). */
  after?: number;
  threadId?: string;
  /** Only events of these types (a reader that wants a few kinds skips the rest unparsed). */
  types?: readonly EventType[];
  /** At most this many (default 500). */
  limit?: number;
}

export interface CommitOptions {
  /**
   * The spool offset just past the CLI frame these drafts come from: recorded as the thread's detached
   * process's processed offset in the same transaction, so that after a crash each frame is processed
   * exactly once. Ignored when the thread has no detached process on record.
   */
  spoolOffset?: number;
}

export interface ThreadCommit {
  readonly threadId: string;
  readonly drafts: readonly EventDraft[];
}

export interface Store {
  /**
   * Appends `drafts` to the thread's log and applies them to the projections, in one transaction: all of
   * them or none. Throws NotFoundError / ConflictError when a draft does not fit the current state (a
   * decision on an approval that is no longer pending, an unknown run), and then nothing is written.
   */
  commit(threadId: string, drafts: readonly EventDraft[], options?: CommitOptions): StoredEvent[];

  /**
   * Several commits, possibly of different threads, in one transaction of the store's (one write of its
   * log instead of one per commit), each all or nothing on its own: the result at each place is that
   * commit's events, or what commit() would have thrown (and then nothing of it is written). A store
   * without it takes them one commit() at a time.
   */
  commitMany?(commits: readonly ThreadCommit[]): (StoredEvent[] | Error)[];

  /**
   * The durability barrier: resolves once every change committed before the call is on disk (survives a
   * crash of the machine, not only of this process). Calls made while a flush is under way share the
   * next one. Rejects with a StoreError when the store cannot make them durable; it then takes no more
   * commits. Nothing committed may be told to anyone outside the process before this resolves. A store
   * whose commit() is already durable resolves at once.
   */
  durable(): Promise<void>;

  getThread(id: string): ThreadRecord | undefined;
  listThreads(): ThreadRecord[];
  getRun(id: string): RunRecord | undefined;
  listRuns(threadId: string): RunRecord[];
  getSubagent(id: string): SubagentRecord | undefined;
  listSubagents(threadId: string): SubagentRecord[];
  getApproval(id: string): ApprovalRecord | undefined;
  listApprovals(filter?: ApprovalFilter): ApprovalRecord[];

  /** Events in global order. */
  readEvents(query?: EventQuery): StoredEvent[];
  /**
   * The same events as JSON text (JSON.stringify of each): those at the log's edge come from what the
   * store committed last without being parsed and serialised again. A store without it: readEvents.
   */
  readEventTexts?(query?: EventQuery): EventText[];
  /** The audit trail's records (canonical text and hash), in order (audit-chain.ts). */
  readAudit(query?: AuditQuery): AuditRow[];
  /** The global sequence number of the last event (0 when the log is empty). */
  lastSeq(): number;

  /**
   * The registry of the hosts that share this store (host-registry.ts), for a store that can be shared
   * (PostgreSQL); undefined for one that serves one host alone (SQLite).
   */
  hosts(): HostRegistry | undefined;

  close(): void;
}
