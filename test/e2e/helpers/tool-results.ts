// What the mock model saw of the CLI's tool results, by tool_use id: how many times each came back and
// when the first did, which is the moment a decision reached the CLI and its tool ran.
import type { MockScript } from '../../../src/testing/index.js';

/** When the mock received each tool result (by tool_use id): the moment a decision reached the CLI. */
export interface ToolResultLog {
  count(toolUseId: string): number;
  /** Resolves with the time (Date.now()) the first result for this call arrived. */
  arrived(toolUseId: string): Promise<number>;
  results(toolUseId: string): { isError: boolean; at: number }[];
}

/** Wraps `script` so that every tool result it is sent is logged first. */
export function watchToolResults(script: MockScript): { script: MockScript; log: ToolResultLog } {
  const seen = new Map<string, { isError: boolean; at: number }[]>();
  const waiters = new Map<string, ((at: number) => void)[]>();
  const watched: MockScript = (ctx) => {
    for (const result of ctx.toolResults) {
      const at = Date.now();
      seen.set(result.toolUseId, [...(seen.get(result.toolUseId) ?? []), { isError: result.isError, at }]);
      for (const wake of waiters.get(result.toolUseId) ?? []) wake(at);
      waiters.delete(result.toolUseId);
    }
    return script(ctx);
  };
  return {
    script: watched,
    log: {
      count: (id) => seen.get(id)?.length ?? 0,
      results: (id) => seen.get(id) ?? [],
      arrived: (id) => {
        const first = seen.get(id)?.[0];
        if (first !== undefined) return Promise.resolve(first.at);
        return new Promise((resolve) => waiters.set(id, [...(waiters.get(id) ?? []), resolve]));
      },
    },
  };
}
