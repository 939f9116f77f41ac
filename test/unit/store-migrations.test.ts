// Migrations by user_version: a fresh file gets the latest schema, reopening changes nothing, a failed
// migration leaves the database as it was, a newer database is refused, and one host at a time.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import Database from 'better-sqlite3';

import { StoreError } from '../../src/protocol/errors.js';
import { MIGRATIONS, SqliteStore, migrate, schemaVersion } from '../../src/store/index.js';

function tempFile(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'nested', 'warden.db');
}

function tables(db: Database.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);
}

const LATEST = MIGRATIONS.at(-1)?.version ?? 0;

describe('store migrations', () => {
  it('a fresh file gets the latest schema, WAL and FULL sync; reopening keeps the data', (t) => {
    const path = tempFile(t);
    const store = SqliteStore.open(path);
    store.commit('t1', [
      {
        type: 'thread.created',
        data: { cwd: '/w', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
      },
    ]);
    store.close();
    const db = new Database(path);
    t.after(() => db.close());
    assert.equal(schemaVersion(db), LATEST);
    assert.deepEqual(tables(db), ['approvals', 'audit', 'events', 'runs', 'subagents', 'threads']);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    db.close();
    const again = SqliteStore.open(path);
    assert.equal(again.listThreads().length, 1);
    assert.equal(again.lastSeq(), 1);
    again.close();
  });

  it('a failing migration is rolled back and reported as a StoreError', (t) => {
    const db = new Database(tempFile(t).replace('/nested', ''));
    t.after(() => db.close());
    migrate(db);
    const broken = [
      ...MIGRATIONS,
      { version: LATEST + 1, description: 'broken', sql: 'CREATE TABLE extra (a); NOT SQL' },
    ];
    assert.throws(
      () => migrate(db, broken),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'STORE_FAILED' &&
        error.message.includes(`Migration ${LATEST + 1} `),
    );
    assert.equal(schemaVersion(db), LATEST, 'the version did not move');
    assert.equal(tables(db).includes('extra'), false, 'nothing of the migration is left');
  });

  it('refuses a database written by a newer version before writing anything, naming file and versions', (t) => {
    const path = tempFile(t);
    SqliteStore.open(path).close();
    const db = new Database(path);
    db.pragma('journal_mode = DELETE');
    db.pragma(`user_version = ${LATEST + 5}`);
    db.close();
    const before = readFileSync(path);
    assert.throws(
      () => SqliteStore.open(path),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'STORE_TOO_NEW' &&
        error.message.includes(path) &&
        error.message.includes(`schema version ${LATEST + 5}`) &&
        error.message.includes(`versions up to ${LATEST}`),
    );
    assert.deepEqual(readFileSync(path), before, 'the file is byte for byte as the newer Warden left it');
    assert.equal(existsSync(`${path}-wal`), false, 'no WAL file was made');
  });

  it('one host at a time: a second open of the same file fails at once', (t) => {
    const path = tempFile(t);
    const first = SqliteStore.open(path);
    t.after(() => first.close());
    assert.throws(
      () => SqliteStore.open(path),
      (error: unknown) => error instanceof StoreError && /in use/.test(error.message),
    );
    first.close();
    SqliteStore.open(path).close();
  });
});
