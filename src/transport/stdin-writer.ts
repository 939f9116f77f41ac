// The CLI's stdin. Each write settles on its own write callback, never on 'drain' alone, and every write
// still pending is rejected the moment the input can no longer complete it (the CLI died, stdin failed),
// so a write to a CLI that stopped reading can never hang. The first stdin failure is kept and reported
// once; EPIPE after the CLI is gone is expected and reported by the owner as it sees fit.

import type { Writable } from 'node:stream';
import { TransportClosedError } from '../protocol/errors.js';

export class StdinWriter {
  readonly #stdin: Writable;
  readonly #onFailure: (cause: Error) => void;
  readonly #pending = new Set<(error?: Error) => void>();
  /** Told once no write is pending any more. */
  readonly #whenIdle: (() => void)[] = [];
  #ended = false;
  #failure: Error | undefined;

  /** `onFailure` hears every stdin error, the first of which also fails the input for good. */
  constructor(stdin: Writable, onFailure: (cause: Error) => void) {
    this.#stdin = stdin;
    this.#onFailure = onFailure;
    stdin.on('error', (error) => this.#fail(error));
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The first error stdin reported, if any. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Resolves when the line was handed to the pipe; rejects TransportClosedError if it never will be. */
  write(line: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        if (!this.#pending.delete(settle)) return;
        if (this.#pending.size === 0) for (const idle of this.#whenIdle.splice(0)) idle();
        if (error === undefined) resolve();
        else reject(error);
      };
      this.#pending.add(settle);
      this.#stdin.write(line, (error) => {
        if (error === undefined || error === null) return settle();
        this.#fail(error);
        settle(new TransportClosedError('Writing to the CLI failed', { cause: error }));
      });
    });
  }

  /** Closes stdin after what was already written. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (!this.#stdin.destroyed && !this.#stdin.writableEnded) this.#stdin.end();
  }

  /**
   * Lets the writes under way finish, for at most `ms`, then releases the pipe without ending it: the
   * reader stays for someone else to write to, and must not be left with half a line (a line longer than
   * the pipe holds goes out in several writes). Resolves once released.
   */
  release(ms: number, error: Error): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.#pending.size === 0) {
        this.abandon(error);
        return resolve();
      }
      const done = (): void => {
        clearTimeout(timer);
        this.abandon(error);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#whenIdle.push(done);
    });
  }

  /** The reader on the other side is gone: reject what is pending and release the pipe. */
  abandon(error: Error): void {
    this.#rejectPending(error);
    this.#stdin.destroy();
  }

  #fail(cause: Error): void {
    if (this.#failure === undefined) {
      this.#failure = cause;
      this.#rejectPending(new TransportClosedError('Writing to the CLI failed', { cause }));
    }
    this.#onFailure(cause);
  }

  #rejectPending(error: Error): void {
    for (const settle of [...this.#pending]) settle(error);
  }
}
