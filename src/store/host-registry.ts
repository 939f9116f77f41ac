// The host registry: what the hosts of a fleet that share one store keep there besides the log. Each host
// registers under its name with a lease kept by heartbeat; the host that created a thread owns it (runs
// its CLI) until another host adopts it; other hosts' commits are followed as they land; a new thread's
// slot on a host is reserved compare-and-set; commands for another host's thread wait in the log until it
// takes them up; and the CLIs' transcripts are kept where any host can resume them. Only a store shared by
// hosts has one (Store.hosts()): PostgreSQL's; an embedded SQLite store serves one host alone.
import type { SessionStore } from '../session/session-store.js';
import type { EventDraft, StoredEvent } from './event-types.js';

/** This host's place in a fleet, as a store opened for it takes it (openStore's options.host). */
export interface FleetHostOptions {
  readonly name: string;
  /** The most CLIs it runs at once (default: no limit). */
  readonly capacity?: number | null;
  /** The directories its threads' cwd may lie under (default: anywhere). */
  readonly roots?: readonly string[];
  /** How long a heartbeat keeps the lease (default 15000 ms). */
  readonly leaseMs?: number;
  /** How often the host beats (default 5000 ms). */
  readonly heartbeatMs?: number;
  /** How often the log head is polled, for what a lost notification did not say (default 1000 ms). */
  readonly sweepMs?: number;
}

/** A host as the fleet sees it. */
export interface HostRecord {
  readonly name: string;
  /** The most CLIs it runs at once (null: no limit given). */
  readonly capacity: number | null;
  /** The directories its threads' cwd may lie under (empty: anywhere). */
  readonly roots: readonly string[];
  readonly pid: number;
  readonly startedAt: string;
  readonly heartbeatAt: string;
  readonly leaseMs: number;
  /** How long ago its last heartbeat was, by the store's clock. */
  readonly msSinceHeartbeat: number;
  /** Whether its lease still runs (its last heartbeat is younger than leaseMs). */
  readonly live: boolean;
  /** CLIs it ran at its last heartbeat. */
  readonly liveClis: number;
  /**
   * Threads placed on it since its last heartbeat (reservePlacement): they count toward its capacity until
   * its next heartbeat reports the CLIs it runs then.
   */
  readonly placed: number;
}

/** Events other hosts committed, handed over in log order, each once. */
export type ForeignEventsListener = (events: readonly StoredEvent[]) => void;

export interface HostRegistry {
  /** This host's name in the fleet (null: a store opened without options.host, which is no member). */
  readonly hostName: string | null;

  /** The host that created the thread: null when that host had no name, undefined for an unknown thread. */
  ownerOf(threadId: string): string | null | undefined;

  /**
   * Hands `listener` every event other hosts commit from now on, in log order, each once, as soon as the
   * store hears of it (and at the latest on a sweep every `sweepMs`). `liveClis` is reported with each
   * heartbeat. Only for a store opened with options.host (a TypeError otherwise).
   */
  follow(listener: ForeignEventsListener, liveClis?: () => number): void;

  /**
   * The commands other hosts asked `host` to run that it has not taken up: no `thread.command_done` and,
   * for a send, no run of that id. In log order.
   */
  pendingCommands(host: string): StoredEvent[];

  /** The fleet's hosts and their leases, by the store's clock. */
  listHosts(): HostRecord[];

  /**
   * Takes a slot of the host's capacity for a thread placed on it, compare-and-set (two hosts placing at
   * once cannot both take its last slot); false when none is left, or the host is gone or unknown.
   * `liveNow` is given by a host placing a thread on itself: its CLIs now, fresher than its last beat.
   */
  reservePlacement(host: string, liveNow: number | null): boolean;

  /**
   * Takes the thread over for this host from its owner, whose lease has expired: commits `closeout` and a
   * `thread.adopted` in one transaction, compare-and-set (two hosts cannot both adopt; the old owner coming
   * back folds the adoption in before it recovers anything). A live owner, or one that is no longer
   * `expected`, is a ConflictError.
   */
  adopt(threadId: string, expected: string | null, closeout: readonly EventDraft[]): StoredEvent[];

  /** The CLIs' transcripts in this store, in the SDK's SessionStore shape: any host can resume them. */
  transcriptStore(): SessionStore;
}
