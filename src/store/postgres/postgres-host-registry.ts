// The host registry of a PostgresStore (HostRegistry, host-registry.ts): this host's registration and
// lease (a heartbeat every heartbeatMs; hosts.ts), who owns which thread (read from the log as it is
// folded: `thread.created` names its host, `thread.adopted` the new one), the commits of other hosts
// handed to the follower once each, the commands waiting for a host, placements, adoptions and the CLIs'
// transcripts. The store it belongs to lends it its connection and commit path (RegistryLink).
import { ConflictError } from '../../protocol/errors.js';
import type { SessionStore } from '../../session/session-store.js';
import type { EventDraft, StoredEvent } from '../event-types.js';
import type { FleetHostOptions, ForeignEventsListener, HostRecord, HostRegistry } from '../host-registry.js';
import { pendingCommandsStatement } from './command-queries.js';
import {
  heartbeat,
  hostsOfRows,
  listHostsStatement,
  lockOwnerLease,
  releaseHost,
  reservePlacement,
} from './hosts.js';
import { eventsOf, hostsOf } from './log-queries.js';
import type { Statement } from './protocol.js';
import { PostgresTranscriptStore, type RunStatements } from './transcript-store.js';

/** What the registry uses of its PostgresStore. */
export interface RegistryLink {
  /** Statements on their own (autocommit), after the open batch of any store of this process is written. */
  exec(statements: Statement[]): Record<string, unknown>[][];
  /** Folds what other hosts appended since the replica's last event (their rows pass noteRows()). */
  refresh(): void;
  /**
   * Commits `drafts` alone in a transaction, `check` run under the log-head lock with the replica up to
   * date; `inTransaction` runs statements in that transaction.
   */
  commitChecked(
    threadId: string,
    drafts: readonly EventDraft[],
    check: (inTransaction: RunStatements) => void,
  ): StoredEvent[];
  /** The durability barrier, covering the foreign events about to be handed over as well. */
  durableWithForeign(): Promise<void>;
}

export class PostgresHostRegistry implements HostRegistry {
  readonly #link: RegistryLink;
  readonly #host: Required<FleetHostOptions> | undefined;
  /** The host that created each thread (null: one without a name); the owner runs its CLI. */
  readonly #owners = new Map<string, string | null>();
  #foreign: StoredEvent[] = [];
  /** The last seq noteRows() has seen. */
  #noted = 0;
  #onForeign: ForeignEventsListener | undefined;
  #liveClis: () => number = () => 0;
  #timers: NodeJS.Timeout[] = [];

  constructor(link: RegistryLink, host: Required<FleetHostOptions> | undefined) {
    this.#link = link;
    this.#host = host;
    if (host !== undefined) this.#timers.push(setInterval(() => this.#beat(), host.heartbeatMs).unref());
  }

  get hostName(): string | null {
    return this.#host?.name ?? null;
  }

  ownerOf(threadId: string): string | null | undefined {
    return this.#owners.get(threadId);
  }

  /**
   * On each notification of a commit (LISTEN, set up when the store opened), and on a sweep of the log
   * head every `sweepMs` (a notification is lost while the listening connection is down).
   */
  follow(listener: ForeignEventsListener, liveClis: () => number = () => 0): void {
    if (this.#host === undefined)
      throw new TypeError('Only a store opened with options.host follows a fleet');
    this.#onForeign = listener;
    this.#liveClis = liveClis;
    this.#timers.push(setInterval(() => this.catchUp(), this.#host.sweepMs).unref());
    this.catchUp();
  }

  pendingCommands(host: string): StoredEvent[] {
    return eventsOf(this.#link.exec([pendingCommandsStatement(host)])[0]);
  }

  listHosts(): HostRecord[] {
    return hostsOfRows(this.#link.exec([listHostsStatement])[0]);
  }

  /** One statement, compare-and-set on the host's row (hosts.ts). */
  reservePlacement(host: string, liveNow: number | null): boolean {
    return (this.#link.exec([reservePlacement(host, liveNow)])[0]?.length ?? 0) > 0;
  }

  /**
   * Under the log-head lock the owner is read from the log as it is now, and the old owner's host row is
   * locked (FOR UPDATE) and its lease checked: two hosts cannot both adopt (the second sees the new
   * owner), and the old owner coming back (its registration and heartbeat update that row) waits for this
   * commit and then folds it in before it recovers anything.
   */
  adopt(threadId: string, expected: string | null, closeout: readonly EventDraft[]): StoredEvent[] {
    const me = this.#host?.name;
    if (me === undefined) throw new TypeError('Only a host of a fleet adopts threads');
    return this.#link.commitChecked(
      threadId,
      [...closeout, { type: 'thread.adopted', data: { from: expected, to: me } }],
      (inTransaction) => {
        const owner = this.#owners.get(threadId);
        if (owner !== expected)
          throw new ConflictError(`Thread ${threadId} is run by host ${owner ?? 'none'} now`);
        if (expected === null) return;
        const [rows] = inTransaction([lockOwnerLease(expected)]);
        if (rows?.[0]?.live === true)
          throw new ConflictError(`Thread ${threadId} runs on host ${expected}, whose lease is live`);
      },
    );
  }

  /** The CLIs' transcripts in this database (transcript-store.ts). */
  transcriptStore(): SessionStore {
    return new PostgresTranscriptStore((statements) => this.#link.exec(statements));
  }

  /** Folds what other hosts committed and hands it to the follower; a store that cannot answer waits. */
  catchUp(): void {
    if (this.#onForeign === undefined) return;
    try {
      this.#link.refresh();
    } catch {
      // The next notification or sweep tries again.
    }
  }

  /**
   * Before rows of the log are folded into a replica that has every event up to `folded`: who owns
   * which thread, and what other hosts committed.
   */
  noteRows(rows: readonly Record<string, unknown>[] | undefined, folded: number): void {
    const events = eventsOf(rows);
    const hosts = hostsOf(rows);
    const me = this.hostName;
    events.forEach((event, index) => {
      if (event.seq <= folded) return;
      const host = hosts[index] ?? null;
      if (event.type === 'thread.created') this.#owners.set(event.threadId, event.data.host ?? host);
      if (event.type === 'thread.adopted') this.#owners.set(event.threadId, event.data.to);
      // Each event is handed over once, also when rebuildProjections() folds the log again.
      if (event.seq <= this.#noted) return;
      this.#noted = event.seq;
      if (host !== me && this.#onForeign !== undefined) this.#foreign.push(event);
    });
    if (this.#foreign.length > 0) queueMicrotask(() => this.#handForeign());
  }

  /** After this host committed: the owners of the threads it created or adopted. */
  noteCommitted(stored: readonly StoredEvent[]): void {
    for (const event of stored) {
      if (event.type === 'thread.created') this.#owners.set(event.threadId, event.data.host ?? this.hostName);
      if (event.type === 'thread.adopted') this.#owners.set(event.threadId, event.data.to);
    }
  }

  /** Stops beating and following; a host leaving cleanly ends its lease now rather than when it runs out. */
  close(): void {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    this.#onForeign = undefined;
    if (this.#host === undefined) return;
    try {
      this.#link.exec([releaseHost(this.#host.name)]);
    } catch {
      // It runs out by itself.
    }
  }

  #handForeign(): void {
    const events = this.#foreign;
    if (events.length === 0) return;
    this.#foreign = [];
    // Another host commits without waiting for the WAL flush, and tells its own clients only after its
    // barrier; a barrier of this host flushes the WAL past those commits too (durable()), so nothing
    // reaches a CLI here before it is on disk either.
    this.#link.durableWithForeign().then(
      () => this.#onForeign?.(events),
      () => undefined,
    );
  }

  #beat(): void {
    if (this.#host === undefined) return;
    try {
      this.#link.exec([heartbeat(this.#host.name, this.#liveClis())]);
    } catch {
      // Unreachable for now; the next beat tries again (the lease lasts several beats).
    }
  }
}
