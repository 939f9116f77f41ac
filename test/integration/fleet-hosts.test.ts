// The hosts of a fleet on one PostgreSQL database: each named host registers and holds a lease; two live
// hosts cannot share a name; a fleet and a host that holds the store alone exclude each other; a host that
// closes ends its lease; a decision for a thread whose host's lease ran out is refused, not recorded; the
// commits of one host reach the other as foreign events, once each and in order; `warden hosts` lists
// them from the database.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { ConflictError, StoreError } from '../../src/protocol/errors.js';
import type { EventDraft, StoredEvent } from '../../src/store/event-types.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { formatHosts } from '../../src/cli/hosts-command.js';
import { parseCommand } from '../../src/cli/args/index.js';
import { createServer } from '../../src/server/index.js';
import { hostNameFor } from '../../src/cli/host-name.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { freshDatabase, storeBackends, testCluster } from '../helpers/store-backends.js';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const enabled = storeBackends().some((backend) => backend.name === 'postgres');

const created: EventDraft = {
  type: 'thread.created',
  data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
};
const titled = (title: string): EventDraft => ({ type: 'thread.titled', data: { title, source: 'user' } });

describe(
  'fleet hosts on PostgreSQL',
  { skip: enabled ? false : 'PostgreSQL is not available', timeout: 120_000 },
  () => {
    it('named hosts register with leases; a name is held by one live host; a fleet and a lone host exclude each other', async (t) => {
      const url = await freshDatabase(t);
      const a = PostgresStore.open(url, { host: { name: 'host-a', capacity: 4, roots: ['/srv/work'] } });
      t.after(() => a.close());
      const b = PostgresStore.open(url, { host: { name: 'host-b' } });
      t.after(() => b.close());
      const hosts = a.hosts().listHosts();
      assert.deepEqual(
        hosts.map((h) => [h.name, h.live, h.capacity, h.roots, h.pid]),
        [
          ['host-a', true, 4, ['/srv/work'], process.pid],
          ['host-b', true, null, [], process.pid],
        ],
      );
      assert.ok(hosts.every((h) => h.leaseMs === 15_000 && h.msSinceHeartbeat < 15_000));
      assert.throws(
        () => PostgresStore.open(url, { host: { name: 'host-a' } }),
        (error: unknown) => error instanceof StoreError && /in use by another host/.test(error.message),
      );
      assert.throws(
        () => PostgresStore.open(url, { exclusive: true }),
        (error: unknown) => error instanceof StoreError && /in use by another host/.test(error.message),
      );
      assert.throws(() => PostgresStore.open(url, { host: { name: 'bad name' } }), TypeError);
      assert.throws(
        () => PostgresStore.open(url, { host: { name: 'x', leaseMs: 100, heartbeatMs: 100 } }),
        TypeError,
      );

      // Closing ends the lease at once; the name is free again.
      b.close();
      assert.deepEqual(
        a
          .hosts()
          .listHosts()
          .map((h) => [h.name, h.live]),
        [
          ['host-a', true],
          ['host-b', false],
        ],
      );
      const again = PostgresStore.open(url, { host: { name: 'host-b' } });
      assert.equal(
        again
          .hosts()
          .listHosts()
          .find((h) => h.name === 'host-b')?.live,
        true,
      );
      again.close();
      a.close();
      const alone = PostgresStore.open(url, { exclusive: true });
      t.after(() => alone.close());
      assert.throws(
        () => PostgresStore.open(url, { host: { name: 'host-c' } }),
        (error: unknown) =>
          error instanceof StoreError && /held by a host that runs it alone/.test(error.message),
      );
    });

    it("another host's commits arrive as foreign events, once each, in order; owners are known on both", async (t) => {
      const url = await freshDatabase(t);
      const a = PostgresStore.open(url, { host: { name: 'host-a' } });
      t.after(() => a.close());
      const b = PostgresStore.open(url, { host: { name: 'host-b', sweepMs: 60_000 } });
      t.after(() => b.close());
      const alive = setInterval(() => undefined, 1000);
      t.after(() => clearInterval(alive));
      const seen: StoredEvent[] = [];
      let wake: (() => void) | undefined;
      b.hosts().follow((events) => {
        seen.push(...events);
        wake?.();
      });
      a.commit('t1', [created]);
      b.commit('t2', [created]);
      for (let i = 0; i < 20; i += 1) a.commit('t1', [titled(`title ${i}`)]);
      // The notifications alone (the sweep is a minute away) bring all 21 of A's events.
      while (seen.length < 21) await new Promise<void>((resolve) => (wake = resolve));
      assert.deepEqual(
        seen.map((e) => e.threadId),
        Array.from({ length: 21 }, () => 't1'),
      );
      assert.deepEqual(
        seen.map((e) => e.seq),
        [1, ...Array.from({ length: 20 }, (_, i) => i + 3)],
      );
      assert.equal(a.hosts().ownerOf('t2'), 'host-b');
      assert.equal(b.hosts().ownerOf('t1'), 'host-a');
      assert.equal(b.hosts().ownerOf('nope'), undefined);
    });

    it('delivery: by notification, and by the sweep while the listener is down (measured)', async (t) => {
      const url = await freshDatabase(t);
      const cluster = await testCluster();
      const a = PostgresStore.open(url, { host: { name: 'host-a' } });
      t.after(() => a.close());
      const sweepMs = 250;
      const b = PostgresStore.open(url, { host: { name: 'host-b', sweepMs } });
      t.after(() => b.close());
      // The listener and the sweep never keep a process alive (a server does): this test does meanwhile.
      const alive = setInterval(() => undefined, 1000);
      t.after(() => clearInterval(alive));
      let arrived: ((at: number) => void) | undefined;
      b.hosts().follow(() => arrived?.(performance.now()));
      a.commit('t1', [created]);
      const delivery = async (): Promise<number> => {
        const at = new Promise<number>((resolve) => (arrived = resolve));
        const started = performance.now();
        a.commit('t1', [titled(`at ${started}`)]);
        return (await at) - started;
      };
      const listeners = () =>
        // This database's only: other test files run hosts of the same names on databases of their own.
        cluster.sql('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = $2', [
          'warden-listen:host-b',
          databaseOf(url),
        ]);
      while ((await listeners()).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const notified: number[] = [];
      for (let i = 0; i < 20; i += 1) notified.push(await delivery());
      const swept: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        while ((await listeners()).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        await cluster.sql(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = $2',
          ['warden-listen:host-b', databaseOf(url)],
        );
        while ((await listeners()).length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
        swept.push(await delivery());
      }
      const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
      const p50 = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? Number.NaN;
      t.diagnostic(
        `notified: p50 ${p50(notified).toFixed(1)} ms, max ${Math.max(...notified).toFixed(1)} ms; listener killed ` +
          `(sweep ${sweepMs} ms): p50 ${p50(swept).toFixed(1)} ms, max ${Math.max(...swept).toFixed(1)} ms`,
      );
      // Bounds that only catch a delivery that did not happen: the sweep's period plus a loaded machine.
      assert.ok(Math.max(...notified) < 5000);
      assert.ok(Math.max(...swept) < sweepMs + 5000);
    });

    it('warden hosts lists the hosts from the database; serve names its host', async (t) => {
      const url = await freshDatabase(t);
      const a = PostgresStore.open(url, { host: { name: 'host-a', capacity: 2 } });
      t.after(() => a.close());
      const cluster = await testCluster();
      // A host that stopped beating a minute ago.
      PostgresStore.open(url, { host: { name: 'host-gone' } }).close();
      await cluster.sql(
        "UPDATE warden_hosts SET heartbeat_at = now() - interval '60 seconds' WHERE name = 'host-gone'",
        [],
        new URL(url).pathname.slice(1),
      );
      const { stdout } = await run(process.execPath, ['--import', 'tsx', MAIN, 'hosts', '--store', url], {
        env: { ...process.env, WARDEN_STORE_URL: '' },
        timeout: 60_000,
      });
      const lines = stdout.trim().split('\n');
      assert.match(lines[0] ?? '', /^HOST\s+LEASE\s+HEARTBEAT\s+CLIS\s+PID\s+ROOTS$/);
      assert.match(lines[1] ?? '', /^host-a\s+live\s+\d+\.\d s ago\s+0\/2\s+\d+\s+anywhere$/);
      const gone = /^host-gone\s+expired\s+(\d+\.\d) s ago\s+0\s+\d+\s+anywhere$/.exec(lines[2] ?? '');
      assert.ok(gone, lines[2]);
      // A minute ago when the row was set, and then however long the command took to start on this machine.
      assert.ok(Number(gone[1]) >= 60, `${gone[1]} s ago`);
      const json = await run(process.execPath, ['--import', 'tsx', MAIN, 'hosts', '--store', url, '--json'], {
        timeout: 60_000,
      });
      const parsed = JSON.parse(json.stdout) as { hosts: { name: string; live: boolean }[] };
      assert.deepEqual(
        parsed.hosts.map((h) => [h.name, h.live]),
        [
          ['host-a', true],
          ['host-gone', false],
        ],
      );
      assert.equal(formatHosts([], 'db'), 'No host has joined the fleet at db yet.\n');

      assert.deepEqual(parseCommand(['serve', '--store', url, '--host-name', 'east-1']), {
        name: 'serve',
        store: url,
        hostName: 'east-1',
      });
      assert.throws(() => parseCommand(['serve', '--host-name', 'bad name']), /--host-name must be/);
      const name = hostNameFor(undefined, join('/tmp', 'some-data'));
      assert.match(name, /^[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{8}$/);
      assert.equal(hostNameFor(undefined, join('/tmp', 'some-data')), name, 'stable for one data dir');
      assert.notEqual(hostNameFor(undefined, join('/tmp', 'other-data')), name);
      assert.equal(hostNameFor('given', '/tmp/x'), 'given');
    });
  },
);

// A decision for a thread whose host's lease ran out is refused before anything is recorded.
describe(
  'a decision for an unreachable host',
  { skip: enabled ? false : 'PostgreSQL is not available' },
  () => {
    it('is a ConflictError naming the host, and the approval stays pending', async (t) => {
      const url = await freshDatabase(t);
      const dir = mkdtempSync(join(tmpdir(), 'warden-fleet-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      // Host A's thread with a pending approval, written as A would (A itself is gone).
      const a = PostgresStore.open(url, { host: { name: 'host-a' } });
      a.commit('t1', [created]);
      a.commit('t1', [
        {
          type: 'run.created',
          data: {
            runId: 'r1',
            status: 'running',
            trigger: 'human',
            prompt: 'hi',
            userMessageId: 'u1',
            generation: 1,
          },
        },
        {
          type: 'approval.requested',
          data: {
            approvalId: 'ap1',
            runId: 'r1',
            subagentId: null,
            toolName: 'Bash',
            toolUseId: 'tu1',
            requestId: 'req1',
            input: { command: 'ls' },
            decisionReason: null,
            blockedPath: null,
            alwaysAllowRules: [],
            suggestions: [],
            generation: 1,
            deadline: null,
          },
        },
      ]);
      a.close();
      const b = await Supervisor.open({ dataDir: join(dir, 'b'), store: url, host: { name: 'host-b' } });
      t.after(() => b.close());
      assert.equal(b.recovered.approvalsExpired, 0, "B does not expire A's approval");
      await assert.rejects(
        b.decide('ap1', { behavior: 'allow' }),
        (error: unknown) =>
          error instanceof ConflictError && /host host-a, which is unreachable/.test(error.message),
      );
      assert.equal(b.getApproval('ap1').status, 'pending');
      assert.deepEqual(
        b.listHosts().map((h) => [h.name, h.live]),
        [
          ['host-a', false],
          ['host-b', true],
        ],
      );
    });
  },
);

// Over HTTP: every host's API lists the fleet; what needs a thread's CLI is a 202 on a host that does not run
// it (the owner runs it); a thread is placed on the host its creation names.
describe('a fleet over HTTP', { skip: enabled ? false : 'PostgreSQL is not available' }, () => {
  it("GET /api/hosts lists the hosts; an interrupt of another host's thread is a 202 naming that host", async (t) => {
    const url = await freshDatabase(t);
    const dir = mkdtempSync(join(tmpdir(), 'warden-fleet-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const open = async (name: string) => {
      const dataDir = join(dir, name);
      const sup = await Supervisor.open({ dataDir, store: url, host: { name, capacity: 3 } });
      t.after(() => sup.close());
      const server = await createServer({ supervisor: sup, dataDir, onError: () => undefined });
      t.after(() => server.close());
      const api = async (path: string, init: { body?: unknown; token?: string } = {}) => {
        const response = await fetch(`${server.url}${path}`, {
          method: init.body === undefined ? 'GET' : 'POST',
          headers: {
            authorization: `Bearer ${init.token ?? server.token}`,
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        });
        return { status: response.status, json: (await response.json()) as Record<string, unknown> };
      };
      return { sup, api };
    };
    const a = await open('host-a');
    const b = await open('host-b');
    const listed = await b.api('/api/hosts');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.json.hosts as { name: string; live: boolean; capacity: number; liveClis: number }[]).map(
        (h) => [h.name, h.live, h.capacity, h.liveClis],
      ),
      [
        ['host-a', true, 3, 0],
        ['host-b', true, 3, 0],
      ],
    );
    assert.equal((await b.api('/api/hosts', { token: 'not-the-token' })).status, 401);
    const { id: threadId } = await a.sup.createThread({ cwd: dir, mode: 'supervised' });
    // What needs the thread's CLI is recorded on B and run by A: 202, naming the host that runs it.
    const interrupted = await b.api(`/api/threads/${threadId}/interrupt`, { body: {} });
    assert.equal(interrupted.status, 202);
    assert.equal(interrupted.json.forwardedTo, 'host-a');
    const done = async () => {
      for (;;) {
        const events = a.sup.readEvents({ threadId });
        const event = events.find((e) => e.type === 'thread.command_done');
        if (event !== undefined) return event;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const requested = a.sup.readEvents({ threadId }).find((e) => e.type === 'thread.command_requested');
    assert.deepEqual(requested?.data, {
      requestId: (await done()).data.requestId,
      command: 'interrupt',
      args: {},
      by: 'host-b',
      to: 'host-a',
    });
    // Placed at creation on the host the body names.
    const placed = await b.api('/api/threads', { body: { cwd: dir, mode: 'supervised', host: 'host-a' } });
    assert.equal(placed.status, 201);
    assert.equal(b.sup.commandHost((placed.json.thread as { id: string }).id), 'host-a');
    const nowhere = await b.api('/api/threads', { body: { cwd: dir, mode: 'supervised', host: 'host-z' } });
    assert.equal(nowhere.status, 409);
    assert.match(JSON.stringify(nowhere.json), /No host host-z/);
    // B shows A's thread all the same.
    assert.equal((await b.api(`/api/threads/${threadId}`)).status, 200);
  });
});

/** The database a connection URL names. */
function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}
