// Where a new thread of a fleet runs: here while this host has room and a root that contains the cwd;
// otherwise on another live host that has both; on the host named at creation; and a ConflictError saying
// why when no host fits. Roots are compared as real paths: a symlink or `..` cannot carry a thread out.
// Outside a fleet, naming a host is a ValidationError.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { ConflictError, ValidationError } from '../../src/protocol/errors.js';
import type { FleetHostOptions } from '../../src/store/host-registry.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { freshDatabase, storeBackends } from '../helpers/store-backends.js';

const enabled = storeBackends().some((backend) => backend.name === 'postgres');

async function fleetOf(t: TestContext, hosts: Record<string, Partial<FleetHostOptions>>) {
  const url = await freshDatabase(t);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-place-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sups: Record<string, Supervisor> = {};
  for (const [name, host] of Object.entries(hosts)) {
    const sup = await Supervisor.open({
      dataDir: join(dir, `data-${name}`),
      store: url,
      host: { name, ...host },
    });
    t.after(() => sup.close());
    sups[name] = sup;
  }
  return { dir, sups };
}

/** The host that runs the thread, as seen from `sup`'s host named `me`. */
const ownerOf = (sup: Supervisor, me: string, threadId: string) => sup.commandHost(threadId) ?? me;

describe(
  'placing new threads in a fleet',
  { skip: enabled ? false : 'PostgreSQL is not available', timeout: 60_000 },
  () => {
    it('a host at capacity places the thread on a host with room; none with room is a 409 saying so', async (t) => {
      const { dir, sups } = await fleetOf(t, { full: { capacity: 0 }, roomy: { capacity: 2 } });
      const thread = await sups.full!.createThread({ cwd: dir, mode: 'supervised' });
      assert.equal(ownerOf(sups.full!, 'full', thread.id), 'roomy');
      assert.equal(sups.roomy!.commandHost(thread.id), undefined, 'roomy runs it');
      const events = sups.roomy!.readEvents({ threadId: thread.id });
      assert.equal(events[0]?.type === 'thread.created' && events[0].data.host, 'roomy');
      // Room here: the thread stays here.
      const local = await sups.roomy!.createThread({ cwd: dir, mode: 'supervised' });
      assert.equal(ownerOf(sups.roomy!, 'roomy', local.id), 'roomy');
      await assert.rejects(
        sups.full!.createThread({ cwd: dir, mode: 'supervised', host: 'full' }),
        (error: unknown) =>
          error instanceof ConflictError &&
          /host full: full is at capacity \(0 of 0 CLIs\)/.test(error.message),
      );
    });

    it('a thread goes to the host whose roots contain its cwd, compared as real paths', async (t) => {
      const url = await freshDatabase(t);
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-place-')));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      for (const sub of ['east/app', 'west/app', 'outside']) mkdirSync(join(dir, sub), { recursive: true });
      symlinkSync(join(dir, 'outside'), join(dir, 'west', 'escape'));
      const open = async (name: string, roots: string[]) => {
        const sup = await Supervisor.open({
          dataDir: join(dir, `data-${name}`),
          store: url,
          host: { name, roots },
        });
        t.after(() => sup.close());
        return sup;
      };
      const east = await open('east', [join(dir, 'east')]);
      await open('west', [join(dir, 'west')]);
      const there = await east.createThread({ cwd: join(dir, 'west', 'app'), mode: 'supervised' });
      assert.equal(east.commandHost(there.id), 'west');
      const here = await east.createThread({ cwd: join(dir, 'east', 'app'), mode: 'supervised' });
      assert.equal(east.commandHost(here.id), undefined);
      // `..` is resolved before the roots are compared.
      const dotted = await east.createThread({
        cwd: join(dir, 'east', '..', 'west', 'app'),
        mode: 'supervised',
      });
      assert.equal(east.commandHost(dotted.id), 'west');
      // A link under west's root that leads outside every root: no host reaches it.
      await assert.rejects(
        east.createThread({ cwd: join(dir, 'west', 'escape'), mode: 'supervised' }),
        (error: unknown) =>
          error instanceof ConflictError &&
          /No live host can run a thread in .*outside: east does not reach .*; west does not reach/.test(
            error.message,
          ),
      );
      // The named host must reach the cwd too.
      await assert.rejects(
        east.createThread({ cwd: join(dir, 'west', 'app'), mode: 'supervised', host: 'east' }),
        (error: unknown) =>
          error instanceof ConflictError &&
          /Cannot place the thread on host east: east does not reach/.test(error.message),
      );
      assert.equal(east.listThreads().length, 3, 'nothing recorded for the refused ones');
    });

    it('the host named at creation runs the thread; a host that is gone is refused', async (t) => {
      const { dir, sups } = await fleetOf(t, { one: {}, two: {}, three: {} });
      const named = await sups.one!.createThread({ cwd: dir, mode: 'supervised', host: 'three' });
      assert.equal(sups.one!.commandHost(named.id), 'three');
      assert.equal(sups.two!.commandHost(named.id), 'three');
      assert.equal(sups.three!.commandHost(named.id), undefined);
      await sups.two!.close();
      await assert.rejects(
        sups.one!.createThread({ cwd: dir, mode: 'supervised', host: 'two' }),
        (error: unknown) =>
          error instanceof ConflictError &&
          /Cannot place the thread on host two: two is unreachable/.test(error.message),
      );
    });
  },
);

describe('placing a thread outside a fleet', () => {
  it('a host named for a thread of a lone supervisor is a ValidationError, and nothing is recorded', async (t) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-place-')));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const sup = await Supervisor.open({ dataDir: join(dir, 'data') });
    t.after(() => sup.close());
    await assert.rejects(
      sup.createThread({ cwd: dir, mode: 'supervised', host: 'elsewhere' }),
      (error: unknown) => error instanceof ValidationError && error.field === 'host',
    );
    assert.equal(sup.listThreads().length, 0);
    const thread = await sup.createThread({ cwd: dir, mode: 'supervised' });
    assert.equal(sup.commandHost(thread.id), undefined);
  });
});
