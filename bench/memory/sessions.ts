// Child process of the memory benchmark: one host, N idle sessions, nothing else in the process. Prints
// one JSON line: the growth of RSS and of the V8 heap (after full collections) from a baseline taken
// with the host already loaded, divided by N.
// Usage: node --expose-gc --import tsx bench/memory/sessions.ts <warden|official> <sessions> <cli>
import { writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { HOST_NAMES, loadHost, type HostName, type HostQuery } from '../lib/hosts.js';
import { RUN_MARKER_VARIABLE } from '../lib/processes.js';

export interface MemorySample {
  readonly sessions: number;
  readonly rssPerSessionKiB: number;
  readonly heapPerSessionKiB: number;
}

const [hostArg, countArg, cli] = process.argv.slice(2);
if (!HOST_NAMES.includes(hostArg as HostName) || cli === undefined)
  throw new TypeError('usage: sessions.ts <warden|official> <sessions> <cli>');
const count = Number(countArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const query = await loadHost(hostArg as HostName);
const env = {
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
  // Inherited from the benchmark, so that it can find and kill every fake CLI this process started.
  [RUN_MARKER_VARIABLE]: process.env[RUN_MARKER_VARIABLE] ?? '',
};

/** An input that stays open and never sends anything: the session idles after init. */
const idleInput: AsyncIterable<never> = {
  [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }),
};

/** Resolves at the session's system/init; keeps consuming (leaving the loop would close the query). */
function initialized(q: HostQuery): Promise<void> {
  return new Promise((resolve, reject) => {
    void (async () => {
      try {
        for await (const message of q) if (message.type === 'system' && message.subtype === 'init') resolve();
        reject(new Error('a session ended before system/init'));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    })();
  });
}

/** Memory after full collections, once freed pages had a moment to go back to the system. */
async function settle(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i += 1) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return process.memoryUsage();
}

// One throwaway session first, so that lazily created host state (and Node's child-process machinery)
// belongs to the baseline rather than to the sessions.
const warm = query({ prompt: idleInput, options: { pathToClaudeCodeExecutable: cli, env } });
await initialized(warm);
const before = await settle();
const sessions: HostQuery[] = [];
const ready: Promise<void>[] = [];
for (let i = 0; i < count; i += 1) {
  const q = query({ prompt: idleInput, options: { pathToClaudeCodeExecutable: cli, env } });
  sessions.push(q);
  ready.push(initialized(q));
}
await Promise.all(ready);
// Let the last replies and stream buffers settle before measuring.
await new Promise((resolve) => setTimeout(resolve, 500));
const after = await settle();
const sample: MemorySample = {
  sessions: count,
  rssPerSessionKiB: (after.rss - before.rss) / 1024 / count,
  heapPerSessionKiB: (after.heapUsed - before.heapUsed) / 1024 / count,
};
writeSync(1, `${JSON.stringify(sample)}\n`);
for (const q of [warm, ...sessions]) q.close();
process.exit(0);
