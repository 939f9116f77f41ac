// Placement reserves a slot of the chosen host's capacity compare-and-set on its row, so hosts placing at
// the same moment cannot overfill it: a thread placed since the host's last heartbeat counts toward its
// load (before, two placements within one heartbeat period both saw the stale count and both took the
// last slot); four host processes placing at once on a host with two free slots get exactly two threads
// there and two ConflictErrors, and the host holds two threads.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

import { ConflictError } from '../../src/protocol/errors.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { freshDatabase, storeBackends } from '../helpers/store-backends.js';

const enabled = storeBackends().some((backend) => backend.name === 'postgres');
const HOST = fileURLToPath(new URL('../fixtures/fleet-placing-host.ts', import.meta.url));
/** No heartbeat within a test: the loads placement reads change only by placements. */
const QUIET = { heartbeatMs: 60_000, leaseMs: 120_000 };

function scratch(t: TestContext): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-place-race-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openHost(t: TestContext, url: string, dir: string, name: string, capacity: number) {
  const sup = await Supervisor.open({
    dataDir: join(dir, `data-${name}`),
    store: url,
    host: { name, capacity, ...QUIET },
  });
  t.after(() => sup.close());
  return sup;
}

/** The threads whose thread.created names `host`, or that `host` committed itself. */
function threadsOn(sup: Supervisor, me: string, host: string): number {
  return sup.listThreads().filter((thread) => (sup.commandHost(thread.id) ?? me) === host).length;
}

describe(
  'placement under concurrent placements',
  { skip: enabled ? false : 'PostgreSQL is not available', timeout: 180_000 },
  () => {
    it('a thread placed since the last heartbeat counts: the next placement does not take the same slot', async (t) => {
      const url = await freshDatabase(t);
      const dir = scratch(t);
      const a = await openHost(t, url, dir, 'host-a', 0);
      const b = await openHost(t, url, dir, 'host-b', 0);
      const c = await openHost(t, url, dir, 'host-c', 1);
      const first = await a.createThread({ cwd: dir, mode: 'supervised' });
      assert.equal(a.commandHost(first.id), 'host-c');
      assert.deepEqual(
        c.listHosts().map((h) => [h.name, h.liveClis, h.placed]),
        [
          ['host-a', 0, 0],
          ['host-b', 0, 0],
          ['host-c', 0, 1],
        ],
      );
      // host-c ran no CLI at its last heartbeat, but its one slot is taken.
      await assert.rejects(
        b.createThread({ cwd: dir, mode: 'supervised' }),
        (error: unknown) =>
          error instanceof ConflictError &&
          /No live host can run a thread in .*host-c is at capacity \(1 of 1 CLIs\)/.test(error.message),
      );
      await assert.rejects(
        b.createThread({ cwd: dir, mode: 'supervised', host: 'host-c' }),
        (error: unknown) =>
          error instanceof ConflictError &&
          /Cannot place the thread on host host-c: host-c is at capacity \(1 of 1 CLIs\)/.test(error.message),
      );
      // A host placing on itself counts its CLIs now and the placements made on it.
      const c2 = await openHost(t, url, dir, 'host-d', 1);
      const own = await c2.createThread({ cwd: dir, mode: 'supervised' });
      assert.equal(c2.commandHost(own.id), undefined, 'host-d runs it');
      await assert.rejects(c2.createThread({ cwd: dir, mode: 'supervised', host: 'host-d' }), ConflictError);
      assert.equal(threadsOn(c, 'host-c', 'host-c'), 1);
    });

    it('four hosts placing at once on two free slots: two threads there, two 409s', async (t) => {
      const url = await freshDatabase(t);
      const dir = scratch(t);
      const c = await openHost(t, url, dir, 'host-c', 2);
      const children: ChildProcessWithoutNullStreams[] = [];
      const lines: AsyncIterator<string>[] = [];
      t.after(() => {
        for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      });
      for (const name of ['host-p', 'host-q', 'host-r', 'host-s']) {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            HOST,
            JSON.stringify({
              dataDir: join(dir, `data-${name}`),
              store: url,
              hostName: name,
              capacity: 0,
              cwd: dir,
            }),
          ],
          { stdio: ['pipe', 'pipe', 'pipe'] },
        );
        children.push(child);
        lines.push(createInterface({ input: child.stdout })[Symbol.asyncIterator]());
      }
      const next = async (i: number): Promise<Record<string, unknown>> => {
        const line = await lines[i]!.next();
        if (line.done === true) throw new Error(`host ${i} ended before it answered`);
        return JSON.parse(line.value) as Record<string, unknown>;
      };
      for (let i = 0; i < children.length; i += 1) assert.deepEqual(await next(i), { ready: true });
      // All at once: each host reads host-c's load (2 free) and reserves; the row decides who gets a slot.
      for (const child of children) child.stdin.write('go\n');
      const answers = await Promise.all(children.map((_, i) => next(i)));
      const placed = answers.filter((answer) => 'placed' in answer);
      const refused = answers.filter((answer) => 'refused' in answer);
      assert.deepEqual(
        placed.map((answer) => answer.placed),
        [{ owner: 'host-c' }, { owner: 'host-c' }],
        JSON.stringify(answers),
      );
      assert.equal(refused.length, 2, JSON.stringify(answers));
      for (const { refused: why } of refused as { refused: { code: string; message: string } }[]) {
        assert.equal(why.code, 'CONFLICT');
        assert.match(why.message, /host-c is at capacity \(2 of 2 CLIs\)/);
      }
      for (const child of children) child.stdin.end();
      const codes = await Promise.all(
        children.map((child) =>
          child.exitCode !== null
            ? Promise.resolve(child.exitCode)
            : new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
        ),
      );
      assert.deepEqual(codes, [0, 0, 0, 0], 'every host process ended cleanly');
      assert.equal(c.listHosts().find((h) => h.name === 'host-c')?.placed, 2);
      // host-c sees the two threads placed on it, and no more.
      const deadline = Date.now() + 30_000;
      while (threadsOn(c, 'host-c', 'host-c') < 2 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(threadsOn(c, 'host-c', 'host-c'), 2);
      assert.equal(c.listThreads().length, 2);
    });
  },
);
