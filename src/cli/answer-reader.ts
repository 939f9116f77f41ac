// Answers typed on stdin, one per line. The terminal stays in its normal (cooked) mode — the kernel echoes
// and edits the line, and Ctrl-C stays a signal — so the same reader serves a TTY and `--ask` in a pipe.
import { createInterface, type Interface } from 'node:readline';

import type { DecisionBehavior } from '../store/records.js';

export class AnswerReader {
  readonly #lines: string[] = [];
  readonly #waiters: ((line: string | null) => void)[] = [];
  #interface: Interface | undefined;
  #ended = false;
  readonly #input: NodeJS.ReadableStream;

  constructor(input: NodeJS.ReadableStream = process.stdin) {
    this.#input = input;
  }

  /** The next line; null once stdin has ended or `signal` aborts. */
  next(signal?: AbortSignal): Promise<string | null> {
    this.#open();
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended || signal?.aborted === true) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const index = this.#waiters.indexOf(done);
        if (index >= 0) this.#waiters.splice(index, 1);
        resolve(null);
      };
      const done = (value: string | null): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      this.#waiters.push(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close(): void {
    this.#interface?.close();
  }

  /** Reading starts at the first question: a run that never asks leaves stdin alone. */
  #open(): void {
    if (this.#interface !== undefined) return;
    this.#interface = createInterface({ input: this.#input, terminal: false });
    this.#interface.on('line', (line) => {
      const waiter = this.#waiters.shift();
      if (waiter === undefined) this.#lines.push(line);
      else waiter(line);
    });
    this.#interface.on('close', () => {
      this.#ended = true;
      for (const waiter of this.#waiters.splice(0)) waiter(null);
    });
  }
}

export interface Answer {
  behavior: DecisionBehavior;
  /** A deny's reason, typed after it on the same line (`n not on this machine`); shown to the model. */
  message?: string;
  /** Deny and stop the turn (`x`, `stop`): the agent does nothing more until the next message. */
  interrupt?: true;
}

/**
 * `y`/`yes`/`allow`, `a`/`always`, `n`/`no`/`d`/`deny`, `x`/`stop` (deny and stop the turn) — a deny may
 * carry its reason on the same line (`n use the staging copy`, `deny: not now`, `x wrong branch`);
 * anything else is no answer.
 */
export function parseAnswer(line: string): Answer | undefined {
  const trimmed = line.trim();
  const [, head = '', rest = ''] = /^([^\s:]*)[\s:]*(.*)$/s.exec(trimmed) ?? [];
  const word = head.toLowerCase();
  if (['n', 'no', 'd', 'deny'].includes(word))
    return rest.trim() === '' ? { behavior: 'deny' } : { behavior: 'deny', message: rest.trim() };
  if (['x', 'stop'].includes(word))
    return rest.trim() === ''
      ? { behavior: 'deny', interrupt: true }
      : { behavior: 'deny', interrupt: true, message: rest.trim() };
  if (rest !== '') return undefined;
  if (['y', 'yes', 'allow'].includes(word)) return { behavior: 'allow' };
  if (['a', 'always'].includes(word)) return { behavior: 'allow_always' };
  return undefined;
}
