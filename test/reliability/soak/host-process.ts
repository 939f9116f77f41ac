// The driver's handle on one soak host process (soak-host.ts): start it, wait until it listens, ask it for
// samples and scripted crashes over its stdin, kill it with SIGKILL, or close it cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import type { HostSample } from './host-metrics.js';
import type { HostConfig } from './soak-host.js';

const HOST = fileURLToPath(new URL('./soak-host.ts', import.meta.url));

export interface SampleReport {
  sample: HostSample;
  warnings: Record<string, number>;
  examples: Record<string, string>;
  unexpected: string[];
}

export class HostProcess {
  readonly url: string;
  readonly token: string;
  readonly pid: number;
  readonly recovered: Record<string, number>;
  readonly #child: ChildProcess;
  readonly #waiters: { key: string; resolve: (value: unknown) => void }[] = [];
  readonly #stderr: string[];

  private constructor(
    child: ChildProcess,
    ready: { url: string; token: string; pid: number; recovered: Record<string, number> },
    stderr: string[],
  ) {
    this.#child = child;
    this.#stderr = stderr;
    this.url = ready.url;
    this.token = ready.token;
    this.pid = ready.pid;
    this.recovered = ready.recovered;
  }

  static async start(config: HostConfig, onSample: (report: SampleReport) => void): Promise<HostProcess> {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', HOST, JSON.stringify(config)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stderr: string[] = [];
    child.stderr.on('data', (chunk: Buffer) => {
      stderr.push(chunk.toString());
      if (stderr.length > 200) stderr.shift();
    });
    child.stdin.on('error', () => undefined);
    const lines = createInterface({ input: child.stdout });
    let host: HostProcess | undefined;
    const ready = new Promise<HostProcess>((resolve, reject) => {
      child.once('exit', (code, signal) =>
        reject(new Error(`the soak host exited (${code ?? signal}) before it was ready: ${stderr.join('')}`)),
      );
      lines.on('line', (line) => {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (host === undefined && message.ready !== undefined) {
          host = new HostProcess(child, message.ready as never, stderr);
          resolve(host);
          return;
        }
        if (host === undefined) return;
        if (message.sample !== undefined) onSample(message as unknown as SampleReport);
        for (const key of Object.keys(message)) host.#settle(key, message[key]);
      });
    });
    return ready;
  }

  get stderrTail(): string {
    return this.#stderr.join('').slice(-4000);
  }

  #settle(key: string, value: unknown): void {
    const index = this.#waiters.findIndex((w) => w.key === key);
    if (index < 0) return;
    const [waiter] = this.#waiters.splice(index, 1);
    waiter!.resolve(value);
  }

  #ask<T>(command: Record<string, unknown>, key: string, timeoutMs = 60_000): Promise<T | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      this.#waiters.push({
        key,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
      });
      this.#child.stdin!.write(`${JSON.stringify(command)}\n`);
    });
  }

  /** Asks for a sample; resolves once it is reported (undefined if the host died first). */
  sample(t: number): Promise<unknown> {
    return this.#ask({ sample: t }, 'sample');
  }

  /** Makes `count` random scripted CLIs die as if SIGKILLed; resolves with how many did. */
  async crashScripted(count: number): Promise<number> {
    return (await this.#ask<number>({ crash: count }, 'crashed')) ?? 0;
  }

  /** SIGKILLs the host: nothing is closed, nothing is flushed beyond what was committed. */
  async kill(): Promise<void> {
    const exited = once(this.#child, 'exit');
    this.#child.kill('SIGKILL');
    await exited;
  }

  /** Stops every agent and exits cleanly; resolves with the host's closing report. */
  async close(): Promise<{ scriptedLeft: number; unexpected: string[] } | undefined> {
    const exited = once(this.#child, 'exit');
    const closed = this.#ask<{ scriptedLeft: number; unexpected: string[] }>(
      { close: true },
      'closed',
      120_000,
    );
    const report = await closed;
    await exited;
    return report;
  }

  get alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }
}
