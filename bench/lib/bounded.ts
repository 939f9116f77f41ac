// Every run has an upper time bound, so a host that hangs becomes a reported failure ("timed out after
// 10 s") instead of a benchmark that never ends. The task gets a signal to stop its host when the bound
// is reached; the caller does not wait for it to obey.

export class TimedOutError extends Error {
  constructor(readonly boundMs: number) {
    super(`timed out after ${formatBound(boundMs)}`);
    this.name = 'TimedOutError';
  }
}

export async function bounded<T>(boundMs: number, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new TimedOutError(boundMs));
    }, boundMs);
  });
  const work = task(controller.signal);
  // After a timeout the task's own failure (if any) is of no interest.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function formatBound(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
