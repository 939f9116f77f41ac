// Group commit for the SQLite store. Commits run with synchronous=NORMAL: a commit writes its frames to the
// write-ahead log (the `-wal` file) and returns without an fsync, so it survives a crash of this process
// (the kernel has the write) but not yet a crash of the machine. The barrier makes them durable: one fsync
// of the WAL, on the thread pool, for every commit made before it started; the event loop goes on
// committing meanwhile, and what it commits rides on the next fsync.
//
// Why an fsync of our own descriptor of the `-wal` file is enough (sqlite.org):
// - pragma.html#pragma_synchronous: "In WAL mode when synchronous is NORMAL (1), the WAL file is
//   synchronized before each checkpoint and the database file is synchronized after each completed
//   checkpoint and the WAL file header is synchronized when a WAL file begins to be reused after a
//   checkpoint." So a frame is either still in the WAL, or was copied into the database file by a
//   checkpoint that synced the WAL before and the database after, before the WAL could be reused.
// - forum post d1a6bc7c4cd2baca ("Switching pragma synchronous to upgrade durability"): in WAL mode with
//   synchronous=NORMAL, flushing the journal (WAL) file makes previously committed transactions durable.
// - fsync(2) flushes the file's data whichever descriptor wrote it, and everything written before the
//   call began. A checkpoint racing our fsync is therefore safe: a frame it copies and then overwrites
//   (the WAL restarting) was synced into the database file by that checkpoint first.
// Two rules keep this true: the descriptor is of the `-wal` file, never of the database file (closing a
// second descriptor of the database would drop SQLite's POSIX locks on it), and SQLite keeps that file
// while the connection is open (it deletes it only at close; no journal_size_limit is set).
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

import { StoreError } from '../protocol/errors.js';

/**
 * The fsync the barrier calls, on the thread pool. An object of its own so that fault tests can stand in
 * for the disk (an fsync that fails, or that is slow) without a test option on any public API.
 */
export const walSync: { sync: (fd: number) => Promise<void> } = {
  sync: (fd) =>
    new Promise((resolve, reject) => fsync(fd, (error) => (error === null ? resolve() : reject(error)))),
};

interface Batch {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: StoreError) => void;
}

function batch(): Batch {
  let resolve!: () => void;
  let reject!: (error: StoreError) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  // Whoever awaits it sees the rejection; the barrier itself must not report it as unhandled.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class WalBarrier {
  readonly #fd: number;
  readonly #walPath: string;
  /** Commits made so far (the store counts each one). */
  #committed = 0;
  /** Every commit up to this count is on disk. */
  #synced = 0;
  /** The fsync under way and the count of commits it covers. */
  #flight: { readonly covers: number; readonly done: Promise<void> } | undefined;
  /** Callers waiting for the fsync after the one under way (or the one about to start). */
  #next: Batch | undefined;
  #failure: StoreError | undefined;
  #closed = false;

  /**
   * Opens the database's WAL (SQLite must have created it: the store opens it in WAL mode and has
   * written) and makes what is there durable now, with the directory entries of the files.
   */
  static open(databasePath: string): WalBarrier {
    const walPath = `${databasePath}-wal`;
    const fd = openSync(walPath, 'r+');
    try {
      fsyncSync(fd);
      syncDirectory(dirname(databasePath));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return new WalBarrier(fd, walPath);
  }

  private constructor(fd: number, walPath: string) {
    this.#fd = fd;
    this.#walPath = walPath;
  }

  /** Set once an fsync failed: what was committed may not be on disk, so the store takes no more commits. */
  get failure(): StoreError | undefined {
    return this.#failure;
  }

  /** Called by the store after each commit. */
  noteCommit(): void {
    this.#committed += 1;
  }

  /** Resolves once every commit noted before this call is on disk; see Store.durable(). */
  durable(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const target = this.#committed;
    if (target <= this.#synced) return Promise.resolve();
    if (this.#flight !== undefined && target <= this.#flight.covers) return this.#flight.done;
    if (this.#next === undefined) {
      this.#next = batch();
      // Started at the end of this turn of the event loop, so that the commits of every request read in
      // this turn share it. While one is under way, the next starts when it ends.
      if (this.#flight === undefined) setImmediate(() => this.#start());
    }
    return this.#next.promise;
  }

  /**
   * Makes everything durable before the store closes, synchronously; waiters of a flush that had not
   * started are settled by it. The descriptor is closed once no fsync uses it any more.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const waiting = this.#next;
    this.#next = undefined;
    if (this.#failure === undefined && this.#committed > this.#synced) {
      try {
        fsyncSync(this.#fd);
        this.#synced = this.#committed;
      } catch (error) {
        this.#fail(error);
      }
    }
    if (waiting !== undefined) {
      if (this.#failure === undefined) waiting.resolve();
      else waiting.reject(this.#failure);
    }
    const flight = this.#flight;
    if (flight === undefined) closeSync(this.#fd);
    else void flight.done.catch(() => undefined).finally(() => closeSync(this.#fd));
  }

  #start(): void {
    const waiting = this.#next;
    if (waiting === undefined || this.#closed) return;
    this.#next = undefined;
    if (this.#failure !== undefined) {
      waiting.reject(this.#failure);
      return;
    }
    const covers = this.#committed;
    const done = walSync.sync(this.#fd).then(
      () => {
        this.#synced = Math.max(this.#synced, covers);
      },
      (error: unknown) => {
        throw this.#fail(error);
      },
    );
    this.#flight = { covers, done };
    done.then(waiting.resolve, waiting.reject);
    void done
      .catch(() => undefined)
      .finally(() => {
        this.#flight = undefined;
        if (this.#next !== undefined) this.#start();
      });
  }

  #fail(error: unknown): StoreError {
    this.#failure ??= new StoreError(
      `Could not make the store's log durable: the fsync of ${this.#walPath} failed ` +
        `(${error instanceof Error ? error.message : String(error)}); what was committed since the last ` +
        'good fsync may not be on disk, so the store takes no more writes until it is opened again',
      { cause: error, code: fullDisk(error) ? 'STORE_FULL' : 'STORE_UNAVAILABLE' },
    );
    return this.#failure;
  }
}

function fullDisk(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** A file's creation is durable only once its directory entry is: fsync of the directory. */
function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
