// openStore(target) picks the backend from its target: a data directory opens the SQLite file in it (no
// host registry: it serves one host alone), a postgres:// URL the database (with its host registry, a
// member of the fleet only with options.host); either is held by one host unless it names itself.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { StoreError } from '../../src/protocol/errors.js';
import { DATABASE_FILE, openStore } from '../../src/store/index.js';
import { freshDatabase, storeBackends } from '../helpers/store-backends.js';

const postgres = storeBackends().some((backend) => backend.name === 'postgres');
const inUse = (error: unknown) => error instanceof StoreError && /in use by another/.test(error.message);

describe('openStore', () => {
  it('a data directory opens its SQLite file, held by one host, with no host registry', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-open-store-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = openStore(dir);
    t.after(() => store.close());
    assert.ok(existsSync(join(dir, DATABASE_FILE)));
    assert.equal(store.hosts(), undefined);
    assert.throws(() => openStore(dir), inUse);
    assert.throws(() => openStore(dir, { host: { name: 'east-1' } }), TypeError);
    assert.throws(() => openStore(''), TypeError);
  });

  it(
    'a postgres:// URL opens the database: held alone without a host name, a fleet member with one',
    { skip: postgres ? false : 'PostgreSQL is not available', timeout: 60_000 },
    async (t) => {
      const alone = openStore(await freshDatabase(t));
      t.after(() => alone.close());
      assert.equal(alone.hosts()?.hostName, null);
      const url = await freshDatabase(t);
      const east = openStore(url, { host: { name: 'east-1' } });
      t.after(() => east.close());
      assert.equal(east.hosts()?.hostName, 'east-1');
      assert.deepEqual(
        east
          .hosts()
          ?.listHosts()
          .map((host) => [host.name, host.live]),
        [['east-1', true]],
      );
      assert.throws(() => openStore(url), inUse);
    },
  );
});
