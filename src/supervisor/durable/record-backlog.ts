// What the CLI told us that the store could not take yet (a full disk, an I/O error): kept in memory, per
// thread and in order, and recorded as soon as the store takes writes again — by a retry timer, and
// before any other change of the same thread, so the log keeps the order in which things happened. A
// held change answers nobody: a cancellation in it reaches its waiting CLI request only once it is in
// the log. A detached CLI's spool offset moves only with the events it covers, so a host that dies with
// a backlog reads those frames again from the spool; a piped CLI's backlog is lost with the host.
import {
  ConflictError,
  NotFoundError,
  StoreError,
  toError,
  type StoreErrorCode,
} from '../../protocol/errors.js';
import type { EventDraft, StoredEvent } from '../../store/event-types.js';
import type { CommitOptions } from '../../store/store.js';

interface Held {
  readonly drafts: readonly EventDraft[];
  readonly options: CommitOptions | undefined;
}

type CommitNow = (
  threadId: string,
  drafts: readonly EventDraft[],
  options: CommitOptions | undefined,
) => StoredEvent[];

const FIRST_RETRY_MS = 25;
const LAST_RETRY_MS = 1000;

/**
 * A failure of the store itself, not of the change: the same write may get past it later (the disk has
 * room again, the I/O passes, a person restores the file). A change that does not fit the log
 * (ConflictError, NotFoundError) never will.
 */
export function isStoreFailure(error: unknown): error is StoreError {
  return error instanceof StoreError;
}

export class RecordBacklog {
  readonly #held = new Map<string, Held[]>();
  readonly #commitNow: CommitNow;
  readonly #warn: (warning: StoreError | ConflictError | NotFoundError) => void;
  #timer: NodeJS.Timeout | undefined;
  #delay = FIRST_RETRY_MS;
  #closed = false;

  constructor(commitNow: CommitNow, warn: (warning: StoreError | ConflictError | NotFoundError) => void) {
    this.#commitNow = commitNow;
    this.#warn = warn;
  }

  /** How many changes are held, over all threads. */
  get size(): number {
    let size = 0;
    for (const held of this.#held.values()) size += held.length;
    return size;
  }

  /** Holds a change the store refused with `error`; it is recorded after those held before it. */
  hold(threadId: string, drafts: readonly EventDraft[], options: CommitOptions | undefined, error: unknown) {
    const held = this.#held.get(threadId);
    if (held === undefined) {
      this.#held.set(threadId, [{ drafts, options }]);
      // Said once per spell, not once per frame.
      this.#warn(
        new StoreError(
          `The store cannot record the events of thread ${threadId} for now; they are kept in order and ` +
            `recorded when it can: ${toError(error).message}`,
          { cause: error, code: error instanceof StoreError ? storeCode(error) : 'STORE_FAILED' },
        ),
      );
    } else held.push({ drafts, options });
    this.#schedule();
  }

  /**
   * Records the thread's held changes, oldest first. Throws the store's error (and keeps what is left) when
   * it still cannot write; a change that no longer fits the log (its approval settled meanwhile) is
   * dropped and reported, as a change recorded at once would have been.
   */
  flush(threadId: string): void {
    const held = this.#held.get(threadId);
    if (held === undefined) return;
    while (held.length > 0) {
      const next = held[0]!;
      try {
        this.#commitNow(threadId, next.drafts, next.options);
      } catch (error) {
        if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
        this.#warn(error);
      }
      held.shift();
    }
    this.#held.delete(threadId);
  }

  /** Stops retrying; what is still held is reported as lost (a detached CLI's frames are read again). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // A last try: the store may have room by now.
    for (const threadId of [...this.#held.keys()]) {
      try {
        this.flush(threadId);
      } catch {
        // Reported below with what is left.
      }
    }
    for (const [threadId, held] of this.#held) {
      const events = held.reduce((n, h) => n + h.drafts.length, 0);
      this.#warn(
        new StoreError(
          `${events} event(s) of thread ${threadId} were never recorded: the store could not take them before it closed`,
          { code: 'STORE_UNAVAILABLE' },
        ),
      );
    }
    this.#held.clear();
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => this.#retry(), this.#delay).unref();
    this.#delay = Math.min(this.#delay * 2, LAST_RETRY_MS);
  }

  #retry(): void {
    this.#timer = undefined;
    for (const threadId of [...this.#held.keys()]) {
      try {
        this.flush(threadId);
      } catch (error) {
        // Anything but the store failing again is a bug: reported, and the thread's held changes dropped
        // rather than retried for ever.
        if (!isStoreFailure(error)) {
          this.#warn(
            new StoreError(`Could not record the held events of thread ${threadId}`, { cause: error }),
          );
          this.#held.delete(threadId);
        }
      }
    }
    if (this.#held.size === 0) this.#delay = FIRST_RETRY_MS;
    else this.#schedule();
  }
}

/** The code of the store's own error, so that the warning says why as the error did. */
function storeCode(error: StoreError): StoreErrorCode {
  return error.code as StoreErrorCode;
}
