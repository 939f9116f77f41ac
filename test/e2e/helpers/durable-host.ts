// Driving host processes for the durable-session tests: each runs test/fixtures/supervisor-durable-host.ts
// on a shared dataDir and reports JSON lines; the test waits on those lines, kills the host with SIGKILL
// (or asks it to close), and opens the next one. Every CLI a host started is tracked by the test world, so
// their process groups are SIGKILLed whatever happens (no detached CLI may outlive a test).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { StoredEvent, Supervisor } from '../../../src/supervisor/index.js';
import { startTestWorld, type MockModel, type MockScript, type Scratch } from '../../../src/testing/index.js';

const HOST = fileURLToPath(new URL('../../fixtures/supervisor-durable-host.ts', import.meta.url));

export interface HostEvent {
  seq: number;
  threadId: string;
  type: StoredEvent['type'];
  data: Record<string, unknown>;
}

export interface HostLine {
  opened?: {
    recovered: Record<string, number>;
    lastSeq: number;
    pid: number;
  };
  event?: HostEvent;
  warning?: string;
  reattached?: boolean;
  closed?: boolean;
}

export interface HostConfig {
  dataDir: string;
  claudePath: string;
  env: Record<string, string | undefined>;
  detached?: boolean;
  threads?: { cwd: string; prompt: string }[];
  since?: number;
}

export class DurableHost {
  readonly child: ChildProcess;
  readonly lines: HostLine[] = [];
  readonly stderr: string[] = [];
  readonly #waiters = new Set<() => void>();
  #ended = false;

  /** `onCli` hears of every CLI the host starts (session.process_started). */
  constructor(config: HostConfig, onCli: (pid: number) => void) {
    this.child = spawn(process.execPath, ['--import', 'tsx', HOST, JSON.stringify(config)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    const input = this.child.stdout;
    assert.ok(input !== null);
    void (async () => {
      for await (const text of createInterface({ input })) {
        const line = JSON.parse(text) as HostLine;
        if (line.event?.type === 'session.process_started') onCli(Number(line.event.data.pid));
        this.lines.push(line);
        this.#wake();
      }
      this.#ended = true;
      this.#wake();
    })();
  }

  get events(): HostEvent[] {
    return this.lines.flatMap((line) => (line.event === undefined ? [] : [line.event]));
  }

  /** The first reported line that matches (waiting for it); fails after `timeoutMs` or if the host ends. */
  async waitFor(predicate: (line: HostLine) => boolean, what: string, timeoutMs = 60_000): Promise<HostLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(predicate);
      if (found !== undefined) return found;
      assert.ok(!this.#ended, `the host ended before ${what}; stderr: ${this.stderr.join('')}`);
      const left = deadline - Date.now();
      assert.ok(left > 0, `no ${what} within ${timeoutMs} ms; stderr: ${this.stderr.join('')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForEvent(
    type: StoredEvent['type'],
    predicate: (event: HostEvent) => boolean = () => true,
    timeoutMs?: number,
  ): Promise<HostEvent> {
    return this.waitFor(
      (line) => line.event?.type === type && predicate(line.event),
      `${type} event`,
      timeoutMs,
    ).then((line) => line.event as HostEvent);
  }

  /** SIGKILL, as a crash; resolves once the host is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }

  /** Asks the host to close (detaching its CLIs, or stopping them) and waits for it to exit. */
  async close(stopAgents: boolean): Promise<void> {
    const exited = once(this.child, 'exit');
    this.child.stdin?.write(stopAgents ? 'close-stop\n' : 'close\n');
    await this.waitFor((line) => line.closed === true, 'the host closing', 30_000);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the host did not exit after closing')), 15_000);
    });
    const [code] = (await Promise.race([exited, late]).finally(() => clearTimeout(timer))) as [number | null];
    assert.equal(code, 0, `the host closed cleanly; stderr: ${this.stderr.join('')}`);
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
    this.#waiters.clear();
  }
}

/** Whether `pid` names a running process (not a zombie). */
export function isRunningPid(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z/.test(readStat(pid));
}

function readStat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}

/** What a durable-session test works with: one data dir, the mock model, host processes, a supervisor. */
export interface DurableScene {
  readonly scratch: Scratch;
  readonly mock: MockModel;
  readonly dataDir: string;
  /** What Supervisor.open() and every host take: the data dir, the pinned CLI, the offline environment. */
  readonly config: { dataDir: string; claudePath: string; env: Record<string, string | undefined> };
  readonly cliPids: Set<number>;
  /** The supervisor the test opens itself, if any; closed with its agents at the end. */
  sup: Supervisor | undefined;
  /** Starts a host process on the data dir; it and every CLI it records are killed at the end, always. */
  host(extra?: Omit<HostConfig, 'dataDir' | 'claudePath' | 'env'>): DurableHost;
}

/**
 * A test world whose mock answers `script(scratch)`, and the cleanup every durable test needs: the test's
 * own supervisor closed with stopAgents, then every host and recorded CLI group SIGKILLed (the world's
 * tracked processes), and the end awaited, so no detached CLI outlives the test even when it fails.
 */
export async function openDurableScene(
  t: TestContext,
  script: (scratch: Scratch) => MockScript,
  { noProcessWaitMs }: { noProcessWaitMs?: number } = {},
): Promise<DurableScene> {
  const world = await startTestWorld(t, {
    prefix: 'warden-durable-',
    scriptFor: script,
    ...(noProcessWaitMs === undefined ? {} : { exitGraceMs: noProcessWaitMs }),
  });
  const { scratch, mock, dataDir } = world;
  const cliPids = new Set<number>();
  const scene: DurableScene = {
    scratch,
    mock,
    dataDir,
    config: { dataDir, claudePath: world.claudePath, env: world.env },
    cliPids,
    sup: undefined,
    host: (extra = {}) => {
      const host = new DurableHost({ ...scene.config, ...extra }, (pid) => {
        cliPids.add(pid);
        world.track(pid);
      });
      world.track(host.child.pid);
      return host;
    },
  };
  world.defer(() => scene.sup?.close({ stopAgents: true }));
  return scene;
}
