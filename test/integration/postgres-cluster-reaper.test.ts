// A throwaway PostgreSQL server does not outlive the test process that started it, even one killed with
// SIGKILL (no exit handler runs): the detached watcher started with it stops the server and removes its
// directory once the process is gone.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { postgresBinDir } from '../../src/testing/postgres-cluster.js';

const OWNER = fileURLToPath(new URL('../fixtures/throwaway-cluster-owner.ts', import.meta.url));

/** Pids of live postgres server processes listening on `port` (their command line names it). */
function serversOnPort(port: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0');
      if (argv[0]?.endsWith('/postgres') && argv.includes('-p') && argv[argv.indexOf('-p') + 1] === port)
        pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** The server's directory: where its postmaster writes its socket (`-k DIR`). */
function socketDirOf(pid: number): string | undefined {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
  const index = argv.indexOf('-k');
  return index === -1 ? undefined : argv[index + 1];
}

describe('a throwaway PostgreSQL server', { skip: postgresBinDir() === undefined, timeout: 120_000 }, () => {
  it('is stopped and removed after the process that started it is SIGKILLed', async (t) => {
    const owner = spawn(process.execPath, ['--import', 'tsx', OWNER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(owner, 'exit');
    t.after(() => {
      if (owner.exitCode === null && owner.signalCode === null) owner.kill('SIGKILL');
    });
    let line: string | undefined;
    for await (const text of createInterface({ input: owner.stdout })) {
      line = text;
      break;
    }
    assert.ok(line !== undefined, 'the owner printed its server');
    const port = new URL((JSON.parse(line) as { url: string }).url).port;
    const [server] = serversOnPort(port);
    assert.ok(server !== undefined, `a server listens on ${port}`);
    const dir = socketDirOf(server);
    assert.ok(dir !== undefined && existsSync(`${dir}/data`), 'the server has its directory');

    owner.kill('SIGKILL');
    await exited;
    // Polled with a bound that only catches a watcher that never acts (it checks every second).
    const killedAt = Date.now();
    while (serversOnPort(port).length > 0 || existsSync(dir)) {
      assert.ok(Date.now() - killedAt < 30_000, 'the server and its directory are gone within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
