// Optional on-disk log of a mock's traffic: requests.jsonl (one summary per request, written when it ends)
// and bodies/NNNN.json (headers and body as received). Writes are chained so lines keep request order
// per completion; a failing disk never breaks the mock, it only warns.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class MockLog {
  readonly #dir: string;
  #chain: Promise<void>;
  #warned = false;

  constructor(dir: string) {
    this.#dir = dir;
    this.#chain = mkdir(join(dir, 'bodies'), { recursive: true }).then(
      () => undefined,
      (error: unknown) => this.#warn(error),
    );
  }

  body(n: number, headers: unknown, body: unknown): void {
    const file = join(this.#dir, 'bodies', `${String(n).padStart(4, '0')}.json`);
    this.#enqueue(() => writeFile(file, JSON.stringify({ headers, body }, null, 1)));
  }

  request(record: object): void {
    const line = `${JSON.stringify({ ts: new Date().toISOString(), ...record })}\n`;
    this.#enqueue(() => appendFile(join(this.#dir, 'requests.jsonl'), line));
  }

  /** Resolves once every queued write has settled. */
  flush(): Promise<void> {
    return this.#chain;
  }

  #enqueue(write: () => Promise<void>): void {
    this.#chain = this.#chain.then(write).catch((error: unknown) => this.#warn(error));
  }

  #warn(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    process.emitWarning(
      `mock model: cannot write its log in ${this.#dir}: ${String(error)}`,
      'WardenTestkitWarning',
    );
  }
}
