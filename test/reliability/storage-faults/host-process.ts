// Runs store-host.ts as a child process: waits for a line it prints, kills it, and checks it is gone.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const STORE_HOST = fileURLToPath(new URL('./store-host.ts', import.meta.url));

export interface HostProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the first line (from now on) that `match` accepts; rejects if the host exits first. */
  line(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** SIGKILL, then waits for the exit and checks that the process is gone. */
  kill(): Promise<void>;
  readonly stderr: () => string;
}

export function startHost(args: string[]): HostProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', STORE_HOST, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  assert.ok(child.pid !== undefined, 'the host started');
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const waiting = new Set<(line: string) => void>();
  lines.on('line', (line) => {
    for (const listener of waiting) listener(line);
  });
  return {
    child,
    pid: child.pid,
    stderr: () => stderr,
    line(match, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`no such line within ${timeoutMs} ms`)), timeoutMs);
        const onExit = (): void => done(new Error(`the host exited first: ${stderr}`));
        const listener = (line: string): void => {
          if (match(line)) done(undefined, line);
        };
        const done = (error: Error | undefined, line?: string): void => {
          clearTimeout(timer);
          waiting.delete(listener);
          child.off('exit', onExit);
          if (error === undefined) resolve(line ?? '');
          else reject(error);
        };
        waiting.add(listener);
        child.once('exit', onExit);
      });
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      assert.throws(() => process.kill(child.pid!, 0), { code: 'ESRCH' }, 'no process is left');
    },
  };
}
