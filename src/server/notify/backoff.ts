// Retries of a delivery: exponential backoff with equal jitter (half the step for sure, half at random, so
// receivers that failed together spread out), and a wait that a closing channel cuts short.

/** How long to wait before try number `attempt` (2 for the first retry). */
export function retryDelay(attempt: number, limits: { baseDelayMs: number; maxDelayMs: number }): number {
  const ceiling = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** (attempt - 2));
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** Resolves true after `ms`, false (at once) when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What a failed fetch said, in a few words (the cause of a network error, or the timeout). */
export function failureOf(error: unknown, timeoutMs: number): string {
  return error instanceof Error && error.name === 'TimeoutError'
    ? `no answer within ${timeoutMs} ms`
    : error instanceof Error
      ? ((error.cause as Error | undefined)?.message ?? error.message)
      : String(error);
}
