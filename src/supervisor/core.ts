// What every part of the supervisor shares: the store, the committed-event hook (answers waiting
// approvals, wakes event iterators), ids, warnings, whether it is closed, and the rule that a change is
// acknowledged only once it is on disk. One instance per Supervisor.
import type { ApprovalRoute } from './approvals/routes.js';
import type { RouteTimers } from './approvals/route-timers.js';
import type { SessionStore } from '../session/session-store.js';
import { randomUUID } from 'node:crypto';

import { ConflictError, StoreError, WardenError, toError } from '../protocol/errors.js';
import type { EventDraft, StoredEvent } from '../store/event-types.js';
import type { CommitOptions, Store } from '../store/store.js';
import { ApprovalWaiters } from './approvals/approval-waiters.js';
import { DurablePublisher } from './durable/durable-publish.js';
import { TurnCommits } from './durable/turn-commits.js';
import { ChangeNotifier } from './event-stream.js';
import { RecordBacklog, isStoreFailure } from './durable/record-backlog.js';
import type { SandboxState } from './runtime/sandbox-state.js';
import type { TwoPersonRules } from '../policy/two-person.js';
import type { QueryFunction } from './types.js';

export interface CoreOptions {
  /** The supervisor's data directory; detached CLIs spool under `<dataDir>/cli`. */
  readonly dataDir: string;
  /** Spawn new CLI processes detached (they outlive the host). */
  readonly detached: boolean;
  /** How long a thread's CLI may have nothing to do before it is parked (Infinity: never). */
  readonly idleParkMs: number;
  /** How long a detached CLI let go of idle lives with no host before its watchdog ends it (Infinity: never). */
  readonly detachedIdleMs: number;
  /** Approvals of the same kind after which a card offers a rule (0: never; suggestion.ts). */
  readonly suggestRulesAfter: number;
  readonly claudePath: string | undefined;
  readonly env: Record<string, string | undefined> | undefined;
  readonly query: QueryFunction;
  readonly onWarning: ((warning: WardenError) => void) | undefined;
  /** Where the CLIs' transcripts are mirrored (a fleet's PostgreSQL), so any host can resume them. */
  readonly sessionStore?: SessionStore | undefined;
  /** Whether the CLIs run in their sandbox, and whether it holds (sandbox-state.ts). */
  readonly sandbox: SandboxState;
  /** What happens to approvals nobody answers (approvals/routes.ts). */
  readonly routes: readonly ApprovalRoute[];
  /** The clock routes are timed by (route-timers.ts). */
  readonly routeClock: RouteTimers;
  /** Which approvals this host makes need two deciders' allows (policy/two-person.ts). */
  readonly twoPerson: TwoPersonRules;
}

export class SupervisorCore {
  readonly store: Store;
  readonly options: CoreOptions;
  readonly notifier = new ChangeNotifier();
  readonly waiters = new ApprovalWaiters();
  /** Told of every committed change after the waiters (the deadline clock). */
  readonly committedListeners: ((events: readonly StoredEvent[]) => void)[] = [];
  /**
   * Threads whose re-attached CLI has not yet said which requests it still waits on: until then an
   * approval of theirs without a waiter may still get one (the request comes again). Settles, never rejects.
   */
  readonly reconciling = new Map<string, Promise<void>>();
  /** What record() could not write yet, per thread, in order (record-backlog.ts). */
  readonly backlog = new RecordBacklog(
    (threadId, drafts, options) => this.#commitNow(threadId, drafts, options),
    (warning) => this.warn(warning),
  );

  /** Committed events wait here until the store has them on disk, then are published (durable-publish.ts). */
  readonly #publisher: DurablePublisher;
  /** The commits a permission request waits on, one transaction per turn (turn-commits.ts). */
  readonly #turnCommits: TurnCommits;
  /** Set by the Supervisor's close(): from then on no call changes anything. */
  #closed = false;

  constructor(store: Store, options: CoreOptions) {
    this.store = store;
    this.options = options;
    this.#publisher = new DurablePublisher(
      store,
      (events) => {
        this.waiters.onCommitted(events);
        for (const listener of this.committedListeners) listener(events);
        this.notifier.notify();
      },
      (error) => this.warn(error),
    );
    this.#turnCommits = new TurnCommits(
      store,
      (threadId) => this.backlog.flush(threadId),
      (events) => this.#publisher.add(events),
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The supervisor is closing: calls are refused, timers and other hosts' commands do nothing. */
  markClosed(): void {
    this.#closed = true;
  }

  checkOpen(): void {
    if (this.#closed) throw new ConflictError('The supervisor is closed');
  }

  /**
   * Runs a change and settles only once everything it committed is on disk: no reply, success or refusal,
   * leaves before the store's barrier (a refusal may follow a change too, as a cancelled approval). When
   * the store could not make it durable, the caller gets that StoreError instead.
   */
  acknowledged<T>(change: () => T | Promise<T>): Promise<T> {
    return attempt(change).then(
      async (value) => {
        await this.durable();
        return value;
      },
      async (error: unknown) => {
        await this.durable();
        throw error;
      },
    );
  }

  /** The log may be shown up to this seq: nothing after it is still waiting to be on disk. */
  get visibleThrough(): number {
    return this.#publisher.visibleThrough;
  }

  /**
   * Resolves once every change committed so far is on disk and published: await it before acknowledging a
   * change to anyone (an HTTP reply, an answer to the CLI). Rejects with a StoreError when the store could
   * not make it durable.
   */
  durable(): Promise<void> {
    // The commits queued in this turn count as made (commitThisTurn): they are written at its end.
    return this.#turnCommits.written().then(() => this.#publisher.durable());
  }

  /** Resolves once `events` (just committed) are on disk and published. */
  whenDurable(events: readonly StoredEvent[]): Promise<void> {
    return this.#publisher.whenDurable(events.at(-1)?.seq ?? 0);
  }

  newId(): string {
    return randomUUID();
  }

  /**
   * One transaction; once it is on disk, waiting approvals hear about it and event iterators wake. Throws
   * typed errors (a StoreError when the store cannot write: nothing is written, nobody is answered). What
   * record() holds for the thread goes first, so the log keeps the order in which things happened.
   */
  commit(threadId: string, drafts: readonly EventDraft[], options?: CommitOptions): StoredEvent[] {
    this.backlog.flush(threadId);
    return this.#commitNow(threadId, drafts, options);
  }

  /**
   * commit(), at the end of this turn of the event loop, in one transaction with the other changes
   * queued in the turn: resolves with the events once they are in the log (undefined, and nothing is
   * written, when `wanted()` is false by then), rejects with what commit() would throw.
   */
  commitThisTurn(
    threadId: string,
    drafts: readonly EventDraft[],
    wanted: () => boolean,
  ): Promise<StoredEvent[] | undefined> {
    return this.#turnCommits.commit(threadId, drafts, wanted);
  }

  /** Events the store committed through a path of its own (a thread's adoption), told like any commit. */
  publish(events: readonly StoredEvent[]): void {
    this.#publisher.add(events);
  }

  #commitNow(threadId: string, drafts: readonly EventDraft[], options?: CommitOptions): StoredEvent[] {
    const events = this.store.commit(threadId, drafts, options);
    this.#publisher.add(events);
    return events;
  }

  /**
   * For what the CLI tells us: a frame must never break the reader. When the store cannot write, the
   * change is held and recorded, in order, once it can (record-backlog.ts); a change that does not fit
   * the log becomes a warning (and nothing of it is written). Returns what was committed now.
   */
  record(threadId: string, drafts: readonly EventDraft[], options?: CommitOptions): StoredEvent[] {
    try {
      return this.commit(threadId, drafts, options);
    } catch (error) {
      if (isStoreFailure(error)) {
        this.backlog.hold(threadId, drafts, options, error);
        return [];
      }
      this.warnFailure(error, `Could not record ${drafts.map((d) => d.type).join(', ')}`);
      return [];
    }
  }

  /** Reports what failed where nobody awaits it: our errors as they are, anything else as a StoreError. */
  warnFailure(error: unknown, what: string): void {
    const cause = toError(error);
    this.warn(WardenError.isWardenError(cause) ? cause : new StoreError(what, { cause }));
  }

  warn(warning: WardenError): void {
    if (this.options.onWarning !== undefined) this.options.onWarning(warning);
    else process.emitWarning(warning);
  }
}

/** Runs `fn` so that whatever it throws becomes a rejection: async methods never throw synchronously. */
export function attempt<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
