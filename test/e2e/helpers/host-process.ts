// A Warden host in a process of its own (a fixture under test/fixtures run with tsx), reporting on stdout
// as JSON lines. The fleet tests start several and SIGKILL some: a host killed for real cannot clean up.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface HostProcess<Line> {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line the host reported so far, in order. */
  readonly lines: Line[];
  /** The first line (already read or to come) that matches; fails after 60 s or when the host exits. */
  waitFor(match: (line: Line) => boolean): Promise<Line>;
  stderr(): string;
}

/** Starts `fixture` with `config` as its one argument (JSON). */
export function startHostProcess<Line>(fixture: string, config: Record<string, unknown>): HostProcess<Line> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  const wakers = new Set<() => void>();
  const errors: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  void (async () => {
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(JSON.parse(line) as Line);
      for (const wake of wakers) wake();
    }
    for (const wake of wakers) wake();
  })();
  return {
    child,
    lines,
    stderr: () => errors.join(''),
    async waitFor(match) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const found = lines.find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`The host did not report what was awaited; stderr: ${errors.join('')}`);
        // Woken by the next line, or after a second to look at the clock again.
        await new Promise<void>((resolve) => {
          const wake = () => {
            wakers.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, 1000);
          wakers.add(wake);
        });
      }
    },
  };
}
