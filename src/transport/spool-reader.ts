// The stdout of a detached CLI is a file it appends to (the spool). The host reads it like `tail -f`, line
// by line, and learns for every line the byte offset just past it. The host commits that offset together
// with what the line produced, so a host that starts again reads on from the offset it committed: every
// line is processed once, none is lost and none is read twice.
//
// Growth is noticed through the file system's change notifications, with a slow poll behind them for file
// systems that send none. The writer cannot say "end of file" (a regular file never ends), so the owner,
// once it knows the CLI has exited, calls finish(): whatever the CLI wrote before it died is already in the
// file, so the reader reads to the end and then stops.
import { watch, type FSWatcher } from 'node:fs';
import { open } from 'node:fs/promises';

import { FrameTooLargeError } from '../protocol/errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from './line-decoder.js';

export interface SpoolLine {
  readonly text: string;
  /** The offset just past this line's newline: where a reader that processed it starts again. */
  readonly end: number;
}

export interface SpoolReaderOptions {
  readonly path: string;
  /** Where to start: 0 for a new spool, the committed offset after a restart. */
  readonly offset?: number;
  readonly maxFrameBytes?: number;
  /** How often to look for growth when no change notification comes. */
  readonly pollMs?: number;
  /** Told once about a last line without a newline, left when the writer died in the middle of it. */
  readonly onTruncatedTail?: (byteLength: number) => void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const READ_BYTES = 256 * 1024;
const DEFAULT_POLL_MS = 250;

export class SpoolReader {
  readonly #path: string;
  readonly #maxFrameBytes: number;
  readonly #pollMs: number;
  readonly #onTruncatedTail: (byteLength: number) => void;
  #offset: number;
  #finished = false;
  #closed = false;
  #changed = true;
  #wake: (() => void) | undefined;
  #watcher: FSWatcher | undefined;
  #reading = false;

  constructor(options: SpoolReaderOptions) {
    const offset = options.offset ?? 0;
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new TypeError(`offset must be a non-negative integer; got ${String(options.offset)}`);
    this.#path = options.path;
    this.#offset = offset;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.#onTruncatedTail = options.onTruncatedTail ?? (() => undefined);
  }

  /** The offset just past the last line handed out (or the starting offset). */
  get offset(): number {
    return this.#offset;
  }

  /** The writer is gone: deliver what the file holds, then end. */
  finish(): void {
    this.#finished = true;
    this.#signal();
  }

  /** Stop at once; lines not yet delivered stay in the file for the next reader. */
  close(): void {
    this.#closed = true;
    this.#signal();
  }

  /** Every complete line from the offset on, waiting for more until finish() or close(). One reader. */
  async *lines(): AsyncGenerator<SpoolLine, void, undefined> {
    for await (const batch of this.batches()) yield* batch;
  }

  /**
   * As lines(), a read's worth at a time: the lines of one chunk of the file in one array, so a consumer
   * pays one await per chunk rather than per line. `offset` moves past a batch as it is handed out.
   */
  async *batches(): AsyncGenerator<SpoolLine[], void, undefined> {
    if (this.#reading) throw new Error('a SpoolReader may only be iterated once');
    this.#reading = true;
    const handle = await open(this.#path, 'r');
    this.#watch();
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    const parts: Buffer[] = [];
    let partBytes = 0;
    let position = this.#offset;
    try {
      while (!this.#closed) {
        this.#changed = false;
        const finishedBeforeRead = this.#finished;
        const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, position);
        if (bytesRead === 0) {
          if (finishedBeforeRead) break;
          if (!this.#changed) await this.#waitForChange();
          continue;
        }
        const chunkStart = position;
        position += bytesRead;
        const batch: SpoolLine[] = [];
        let start = 0;
        for (
          let nl = buffer.indexOf(NEWLINE, 0);
          nl !== -1 && nl < bytesRead;
          nl = buffer.indexOf(NEWLINE, start)
        ) {
          const piece = buffer.subarray(start, nl);
          start = nl + 1;
          const line = partBytes === 0 ? piece : Buffer.concat([...parts.splice(0), piece]);
          partBytes = 0;
          const content = line.at(-1) === CARRIAGE_RETURN ? line.subarray(0, -1) : line;
          if (content.length > this.#maxFrameBytes) {
            // The lines before the oversized one are still delivered.
            if (batch.length > 0) yield batch;
            throw new FrameTooLargeError(this.#maxFrameBytes, content.length);
          }
          if (content.length > 0) batch.push({ text: content.toString('utf8'), end: chunkStart + nl + 1 });
        }
        if (start > 0) this.#offset = chunkStart + start;
        if (batch.length > 0) yield batch;
        if (this.#closed) return;
        if (start < bytesRead) {
          // Copied: the read buffer is reused for the next chunk.
          parts.push(Buffer.from(buffer.subarray(start, bytesRead)));
          partBytes += bytesRead - start;
          if (partBytes > this.#maxFrameBytes) throw new FrameTooLargeError(this.#maxFrameBytes, partBytes);
        }
      }
      if (partBytes > 0 && !this.#closed) this.#onTruncatedTail(partBytes);
    } finally {
      this.#watcher?.close();
      this.#watcher = undefined;
      await handle.close();
    }
  }

  #watch(): void {
    try {
      this.#watcher = watch(this.#path, { persistent: false }, () => this.#signal());
      this.#watcher.on('error', () => {
        // The poll below still notices growth.
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch {
      this.#watcher = undefined;
    }
  }

  #signal(): void {
    this.#changed = true;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #waitForChange(): Promise<void> {
    return new Promise<void>((resolve) => {
      // Keeps the host alive while it waits for the CLI, as a pipe would.
      const timer = setTimeout(() => this.#signal(), this.#pollMs);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
