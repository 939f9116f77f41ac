// Waiting for a condition that nothing announces (a process that exits, a file the CLI writes, a row
// another host commits): poll it, bounded, so that a hang fails the test and a loaded machine does not.
// It orders nothing; where an event says that something happened, await the event instead.

export interface UntilOptions {
  /** What is awaited, for the error (a function is called only when the wait fails). */
  readonly what?: string | (() => string);
  /** Default 60 s: generous, it only catches hangs. */
  readonly timeoutMs?: number;
  /** Default 25 ms. */
  readonly intervalMs?: number;
  /** Treat a probe that throws as "not yet" (something that is still coming back, such as a server). */
  readonly retryErrors?: boolean;
}

/** What a probe gives while the condition does not hold yet. */
type NotYet = undefined | null | false;

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_INTERVAL_MS = 25;

/**
 * Calls `probe` until it gives a value (anything but undefined, null or false) and resolves with it;
 * resolves with undefined when `timeoutMs` passes first. A probe that throws fails the wait, unless
 * `retryErrors`.
 */
export async function poll<T>(
  probe: () => T | NotYet | Promise<T | NotYet>,
  options: UntilOptions = {},
): Promise<T | undefined> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS, retryErrors = false } = options;
  if (!(timeoutMs >= 0) || !(intervalMs >= 0)) throw new TypeError('poll: the times must not be negative');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T | NotYet;
    try {
      value = await probe();
    } catch (error) {
      if (!retryErrors) throw error;
      value = undefined;
    }
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** As poll(), but a wait that runs out throws an Error naming `what` (given alone, or in the options). */
export async function until<T>(
  probe: () => T | NotYet | Promise<T | NotYet>,
  optionsOrWhat: UntilOptions | string | (() => string) = {},
): Promise<T> {
  const options: UntilOptions = typeof optionsOrWhat === 'object' ? optionsOrWhat : { what: optionsOrWhat };
  const value = await poll(probe, options);
  if (value !== undefined) return value;
  const what = typeof options.what === 'function' ? options.what() : (options.what ?? 'the condition');
  throw new Error(`Timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms waiting for ${what}`);
}
