// Decider tokens are never stored or logged in clear: `warden token create` (spawned, no server) prints
// the token once and keeps only its SHA-256 in a 0600 file; after the token was used, refused and revoked
// through a real server, no file of the data directory (the database included) and nothing the server
// reported holds it; `warden token list` shows names and times only. A revocation made on the file with
// no server running holds for the next server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

import { createServer } from '../../src/server/index.js';
import { DECIDERS_FILE } from '../../src/server/deciders.js';
import { REPO_ROOT } from '../e2e/helpers/server-command.js';
import { openFakeSupervisor } from '../fixtures/supervisor-fake-query.js';

const run = promisify(execFile);
const warden = async (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: REPO_ROOT, timeout: 60_000 });

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

describe('decider tokens at rest', () => {
  it('are kept as SHA-256 only, in a private file, and appear in no file or report', async (t) => {
    const { sup, dataDir } = await openFakeSupervisor(t);
    await sup.close();
    const created = await warden('token', 'create', 'dave', '--data-dir', dataDir);
    const token = created.stdout.trim();
    assert.match(token, /^wdn_[A-Za-z0-9_-]{43}$/, 'printed once, alone on stdout (no server: no link)');
    assert.match(created.stderr, /shown once/);
    const file = join(dataDir, DECIDERS_FILE);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const stored = readFileSync(file, 'utf8');
    assert.ok(!stored.includes(token) && !stored.includes(token.slice(4)), 'not in clear');
    assert.ok(stored.includes(createHash('sha256').update(token).digest('hex')), 'its SHA-256');

    // Used, refused, used in a decision, and revoked, through a real server.
    const { Supervisor } = await import('../../src/supervisor/index.js');
    const reopened = await Supervisor.open({ dataDir, query: (args) => noCli(args) });
    const reports: unknown[] = [];
    const server = await createServer({ supervisor: reopened, dataDir, onError: (e) => reports.push(e) });
    // Closed here too, so that a failed assertion does not leave the test's process running.
    t.after(async () => {
      await server.close().catch(() => undefined);
      await reopened.close().catch(() => undefined);
    });
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    assert.equal((await call('/api/threads')).status, 200);
    assert.equal((await call('/api/tokens')).status, 403);
    const malformed = await call('/api/approvals/nope/decision', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    assert.equal(malformed.status, 400);
    assert.equal((await call('/api/audit?format=csv')).status, 200);
    const listed = await warden('token', 'list', '--data-dir', dataDir);
    assert.match(
      listed.stdout,
      /^NAME\tROLE\tSCOPE\tCREATED\tLAST USED\tREVOKED\ndave\tapprover\teverything\t\S+\t\S+\t-\n$/,
    );
    const revoked = await warden('token', 'revoke', 'dave', '--data-dir', dataDir);
    assert.match(revoked.stdout, /^Revoked dave .*its sessions and WebSockets were ended/);
    assert.equal((await call('/api/threads')).status, 401);
    await server.close();
    await reopened.close();

    for (const path of filesUnder(dataDir)) {
      const bytes = readFileSync(path);
      assert.equal(bytes.indexOf(token), -1, `${path} does not hold the token`);
    }
    assert.ok(!JSON.stringify(reports.map(String)).includes(token), 'nothing reported holds it');
  });

  it('a token revoked on the file with no server running is refused by the next server', async (t) => {
    const { sup, dataDir } = await openFakeSupervisor(t);
    await sup.close();
    const token = (await warden('token', 'create', 'erin', '--data-dir', dataDir)).stdout.trim();
    await warden('token', 'revoke', 'erin', '--data-dir', dataDir);
    const { Supervisor } = await import('../../src/supervisor/index.js');
    const reopened = await Supervisor.open({ dataDir, query: (args) => noCli(args) });
    t.after(() => reopened.close());
    const server = await createServer({ supervisor: reopened, dataDir, onError: () => undefined });
    t.after(() => server.close());
    const answer = await fetch(`${server.url}/api/threads`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(answer.status, 401);
    assert.equal(
      (await fetch(`${server.url}/api/threads`, { headers: { authorization: `Bearer ${server.token}` } }))
        .status,
      200,
    );
  });
});

/** No CLI is started in these tests. */
function noCli(_args: unknown): never {
  throw new Error('no CLI in this test');
}
