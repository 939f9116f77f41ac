// The watchdog of a detached CLI (transport/detached-lifetime.ts), on a stand-in CLI: the pid and start time
// are the CLI's; removing the CLI's directory ends the CLI and the watchdog; an idle deadline that passed
// ends them and says so, unless a host took the CLI back or the CLI wrote since; a CLI that dies takes its
// watchdog along, and the transport's clean-up does not report the watchdog as a leftover of the CLI. A
// CLI that cannot be run is still a SpawnError before anything starts.
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { SpawnError } from '../../src/protocol/errors.js';
import { spawnDetached, type DetachedChild } from '../../src/transport/detached-child.js';
import {
  ENDED_IDLE,
  claimFromWatchdog,
  markIdleUntil,
  readLifetime,
} from '../../src/transport/detached-lifetime.js';
import type { TransportDiagnostic } from '../../src/transport/diagnostics.js';
import { DetachedTransport } from '../../src/transport/detached-transport.js';
import { openFifoWriter } from '../../src/transport/fifo.js';
import { findLeftovers, signalGroup, startTicksOf } from '../../src/transport/process-tree.js';
import { until } from '../../src/testing/index.js';
import { within } from './transport-helpers.js';

const HANG = { timeout: 60_000 };
const ECHO = fileURLToPath(new URL('../fixtures/echo-lines.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'warden-watchdog-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const nextDir = (): string => join(root, `cli-${dirs++}`);
/** Looks every second, so that the tests take seconds; the supervisor's CLIs use the default (2 s). */
const FAST = { pollSeconds: 1, termGraceSeconds: 2 };

/** Lets time pass for a check that something did NOT happen (never to order events). */
const elapse = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function startCli(dir = nextDir()): Promise<DetachedChild & { group: () => Promise<number[]> }> {
  const child = await spawnDetached({
    command: process.execPath,
    args: [ECHO],
    cwd: undefined,
    env: { PATH: process.env.PATH },
    marker: `watchdog-${dirs}`,
    dir,
    watchdog: FAST,
  });
  const tree = { pgid: child.pid, marker: `watchdog-${dirs}`, startTicks: child.startTicks };
  const group = (): Promise<number[]> => findLeftovers(tree);
  // The watchdog and its first sleep are started before the CLI's first line: wait for that line.
  await until(() => readFileSync(child.paths.output, 'utf8').includes('"ready"'), {
    what: 'the CLI to start',
    timeoutMs: 10_000,
  });
  return { ...child, group };
}

/** The whole group is gone: the CLI, the watchdog and whatever it ran. Returns how long it took. */
async function goneWithin(child: { group: () => Promise<number[]> }, ms: number): Promise<number> {
  const started = performance.now();
  await until(async () => (await child.group()).length === 0, { what: 'the group to end', timeoutMs: ms });
  return performance.now() - started;
}

describe('the watchdog of a detached CLI', () => {
  test(
    "the pid and its start time are the CLI's; the watchdog is in its group and holds none of its stdio",
    HANG,
    async () => {
      const child = await startCli();
      try {
        const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
        assert.deepEqual(argv.slice(0, 2), [process.execPath, ECHO]);
        assert.equal(startTicksOf(child.pid), child.startTicks);
        const watchdog = (await child.group()).filter((pid) => pid !== child.pid);
        assert.ok(watchdog.length >= 1, 'the watchdog (and its sleep) share the group');
        // It holds none of the CLI's stdio: not the input pipe (the CLI must be its only reader), nor the spool.
        for (const pid of watchdog)
          for (const fd of [0, 1, 2]) assert.equal(readlinkSync(`/proc/${pid}/fd/${fd}`), '/dev/null');
      } finally {
        signalGroup(child.pid, 'SIGKILL');
      }
    },
  );

  test('removing the directory ends the CLI and the watchdog within seconds', HANG, async () => {
    const child = await startCli();
    rmSync(child.paths.dir, { recursive: true, force: true });
    const ms = await goneWithin(child, 15_000);
    const exit = await within(5_000, child.exited, 'the exit');
    assert.equal(exit.signal, 'SIGTERM', 'asked to exit first');
    assert.ok(ms < 10_000, `gone ${ms.toFixed(0)} ms after the directory was removed`);
  });

  test('an idle deadline that passed ends the CLI and leaves the reason', HANG, async () => {
    const child = await startCli();
    markIdleUntil(child.paths.dir, Date.now(), 1000);
    await goneWithin(child, 15_000);
    assert.equal((await within(5_000, child.exited, 'the exit')).signal, 'SIGTERM');
    assert.equal(existsSync(join(child.paths.dir, ENDED_IDLE)), true);
    assert.equal(readLifetime(child.paths.dir).endedIdle, true);
    assert.equal(claimFromWatchdog(child.paths.dir), 'ending', 'a host is told it came too late');
  });

  test('a CLI taken back before its deadline, or that wrote since, is left alone', HANG, async () => {
    const claimed = await startCli();
    const wrote = await startCli();
    try {
      markIdleUntil(claimed.paths.dir, Date.now() + 1000, 1000);
      assert.equal(claimFromWatchdog(claimed.paths.dir), 'claimed');
      // The CLI answers a line after the watchdog's first look at the marker (well before its deadline, so
      // the watchdog cannot end it first): once the deadline has passed, a whole period of quiet must pass
      // from that line on.
      markIdleUntil(wrote.paths.dir, Date.now() + 2000, 6000);
      await until(() => existsSync(join(wrote.paths.dir, '.seen')), {
        what: "the watchdog's first look at the marker",
        timeoutMs: 5_000,
      });
      const input = openFifoWriter(wrote.paths.input);
      const mtime = (file: string): bigint => statSync(join(wrote.paths.dir, file), { bigint: true }).mtimeNs;
      // A file's time moves in ticks of the kernel's clock: an echo in the tick of the stamp is no news.
      await until(
        () => {
          input.write('still here\n');
          return mtime('output') > mtime('.seen');
        },
        { what: 'an echo newer than the stamp', timeoutMs: 5_000, intervalMs: 20 },
      );
      input.destroy();
      await elapse(3_000); // a negative check: three looks pass
      assert.ok((await claimed.group()).includes(claimed.pid), 'the claimed CLI runs on');
      assert.ok((await wrote.group()).includes(wrote.pid), 'the CLI that wrote runs on');
      assert.equal(readLifetime(claimed.paths.dir).idleUntil, null);
      await goneWithin(wrote, 20_000);
      assert.equal(readLifetime(wrote.paths.dir).endedIdle, true, 'then its period ran out');
      for (const file of ['.seen', ENDED_IDLE])
        assert.equal(statSync(join(wrote.paths.dir, file)).mode & 0o777, 0o600, `${file} is private`);
    } finally {
      signalGroup(claimed.pid, 'SIGKILL');
      signalGroup(wrote.pid, 'SIGKILL');
    }
  });

  test('a CLI that dies takes its watchdog along, which is no leftover to report', HANG, async () => {
    const child = await startCli();
    const diagnostics: TransportDiagnostic[] = [];
    const transport = new DetachedTransport({
      paths: child.paths,
      identity: { pid: child.pid, startTicks: child.startTicks },
      marker: `watchdog-${dirs - 1}`,
      exited: child.exited,
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
      pollMs: 20,
    });
    const input = openFifoWriter(child.paths.input);
    input.write('grandchild\n');
    await until(() => readFileSync(child.paths.output, 'utf8').includes('"grandchild"'), {
      what: 'the grandchild',
      timeoutMs: 5_000,
    });
    const grandchild = Number(/"grandchild":(\d+)/.exec(readFileSync(child.paths.output, 'utf8'))?.[1]);
    input.destroy();
    process.kill(child.pid, 'SIGKILL');
    await within(5_000, transport.exited, 'the exit');
    await transport.close();
    assert.deepEqual(
      diagnostics.map((d) => (d.kind === 'leftovers_killed' ? d.pids : d.kind)),
      [[grandchild]],
      'only what the CLI left is reported',
    );
    assert.deepEqual(await child.group(), []);
  });

  test('the watchdog of a CLI killed alone exits by itself', HANG, async () => {
    const child = await startCli();
    process.kill(child.pid, 'SIGKILL');
    const ms = await goneWithin(child, 10_000);
    assert.ok(ms < 5_000, `the watchdog went ${ms.toFixed(0)} ms after its CLI`);
    rmSync(child.paths.dir, { recursive: true, force: true });
  });

  test('a CLI that cannot be run is a SpawnError before anything starts', async () => {
    const notExecutable = join(root, 'not-executable');
    writeFileSync(notExecutable, '#!/bin/sh\n');
    chmodSync(notExecutable, 0o644);
    const cases: [string, Record<string, string | undefined>, string][] = [
      [join(root, 'no-such-cli'), { PATH: process.env.PATH }, 'ENOENT'],
      ['no-such-cli-on-path', { PATH: process.env.PATH }, 'ENOENT'],
      ['node', {}, 'ENOENT'],
      [notExecutable, { PATH: process.env.PATH }, 'EACCES'],
      [root, { PATH: process.env.PATH }, 'EACCES'],
    ];
    for (const [command, env, errno] of cases) {
      const dir = nextDir();
      await assert.rejects(
        spawnDetached({ command, args: [], cwd: undefined, env, marker: 'spawn-error', dir }),
        (error: unknown) => error instanceof SpawnError && error.errno === errno && error.command === command,
        `${command}: ${errno}`,
      );
      assert.equal(existsSync(dir), false);
    }
    // A bare name is found on options.env's PATH, as the spawn would.
    const child = await spawnDetached({
      command: 'node',
      args: [ECHO],
      cwd: undefined,
      env: { PATH: dirname(process.execPath) },
      marker: 'bare-name',
      dir: nextDir(),
      watchdog: FAST,
    });
    signalGroup(child.pid, 'SIGKILL');
    await within(5_000, child.exited, 'the exit');
  });
});
