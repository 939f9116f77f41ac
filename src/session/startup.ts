// startup(): a warm query. The CLI is spawned and initialized before the prompt is known — the costly
// part of a first turn (process start, settings, MCP servers, the initialize handshake) — so that
// `.query(prompt)` only writes the prompt to a process that is already listening.
//
// Built on query() itself: the query starts with a prompt that is an input held open, and the real prompt
// is handed to that input later. Everything query() guarantees (the input lifecycle, close escalation,
// errors) holds unchanged, because nothing else differs.
import { RequestTimeoutError } from '../protocol/errors.js';
import type { SDKUserMessage } from '../protocol/messages.js';
import { userMessage } from './initialize-request.js';
import type { Options } from './options.js';
import { query, type Prompt, type Query } from './query.js';

const DEFAULT_INITIALIZE_TIMEOUT_MS = 60_000;

/** A query whose CLI is running and initialized; `query(prompt)` starts the conversation. */
export interface WarmQuery extends AsyncDisposable {
  /** Sends the prompt and returns the Query. Can be called once. */
  query(prompt: Prompt): Query;
  /** Stops the CLI without sending a prompt. */
  close(): void;
}

export async function startup({
  options = {},
  initializeTimeoutMs,
}: { options?: Options; initializeTimeoutMs?: number } = {}): Promise<WarmQuery> {
  if (
    initializeTimeoutMs !== undefined &&
    (typeof initializeTimeoutMs !== 'number' || !(initializeTimeoutMs > 0))
  )
    throw new TypeError('initializeTimeoutMs must be a positive number');
  const held = new HeldPrompt();
  const warm = query({ prompt: held, options });
  try {
    await withTimeout(warm.initializationResult(), initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS);
  } catch (error) {
    held.release(undefined);
    warm.close();
    throw error;
  }
  return new StartedQuery(warm, held);
}

class StartedQuery implements WarmQuery {
  readonly #query: Query;
  readonly #held: HeldPrompt;
  #used = false;

  constructor(warm: Query, held: HeldPrompt) {
    this.#query = warm;
    this.#held = held;
  }

  query(prompt: Prompt): Query {
    if (this.#used) throw new TypeError('WarmQuery.query() can only be called once (or was closed)');
    if (
      typeof prompt !== 'string' &&
      (typeof prompt !== 'object' || prompt === null || !(Symbol.asyncIterator in prompt))
    )
      throw new TypeError('prompt must be a string or an AsyncIterable of user messages');
    this.#used = true;
    this.#held.release(prompt);
    return this.#query;
  }

  close(): void {
    this.#used = true;
    this.#held.release(undefined);
    this.#query.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return this.#query.closed;
  }
}

/**
 * The prompt query() is started with: it yields nothing until `release` hands it the real prompt, then
 * yields that (a string as one user message, an iterable item by item) and ends when it ends. `yield*`
 * passes a `return()` from query() (on close) on to the caller's iterable, as if it had been the prompt.
 */
class HeldPrompt implements AsyncIterable<SDKUserMessage> {
  #release!: (prompt: Prompt | undefined) => void;
  readonly #prompt = new Promise<Prompt | undefined>((resolve) => (this.#release = resolve));

  release(prompt: Prompt | undefined): void {
    this.#release(prompt);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SDKUserMessage, void, undefined> {
    const prompt = await this.#prompt;
    if (prompt === undefined) return;
    if (typeof prompt === 'string') yield userMessage(prompt) as SDKUserMessage;
    else yield* prompt;
  }
}

/** The initialize handshake, bounded: a CLI that never answers becomes a RequestTimeoutError. */
async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError('initialize', timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
