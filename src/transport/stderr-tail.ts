// Keeps the last few KiB of the CLI's stderr for error messages. stderr is always drained so the child can
// never block on it, however much it writes.

import { StringDecoder } from 'node:string_decoder';

export const DEFAULT_STDERR_TAIL_CHARS = 8 * 1024;

export class StderrTail {
  readonly #limit: number;
  readonly #decoder = new StringDecoder('utf8');
  #text = '';

  constructor(limit = DEFAULT_STDERR_TAIL_CHARS) {
    this.#limit = limit;
  }

  /** Decodes a chunk (keeping characters split across chunks intact) and returns the decoded text. */
  push(chunk: Buffer): string {
    const text = this.#decoder.write(chunk);
    this.#append(text);
    return text;
  }

  /** Flushes a dangling partial character, if any, and returns it. */
  end(): string {
    const text = this.#decoder.end();
    this.#append(text);
    return text;
  }

  /** The last `limit` characters written so far. */
  get text(): string {
    return this.#text.length > this.#limit ? this.#text.slice(-this.#limit) : this.#text;
  }

  #append(text: string): void {
    if (text === '') return;
    // Trim only once the text is twice the limit, so a chatty child does not cost a copy per chunk.
    this.#text += text;
    if (this.#text.length > this.#limit * 2) this.#text = this.#text.slice(-this.#limit);
  }
}
