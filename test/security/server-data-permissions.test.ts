// The data directory holds prompts, tool inputs and outputs, and the server token: only its owner may read
// it. Whatever the umask, `warden serve` and `warden run` keep the directory 0700 and every file in it
// 0600 (database, WAL, token; the sandbox's scripts 0700, run by the CLI); a looser directory found at start is tightened and the command says so on
// stderr; a directory owned by another user is refused.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { REPO_ROOT, spawnWarden, startCommandSession } from '../e2e/helpers/server-command.js';

/** `warden <args>` under umask 022, as a login shell usually has it. */
function wardenWithUmask022(args: string[], env: Record<string, string>) {
  const main = join(REPO_ROOT, 'src', 'cli', 'main.ts');
  return spawnWarden(args, env, {
    command: {
      file: '/bin/sh',
      args: ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, '--import', 'tsx', main, ...args],
    },
    closeStdin: true,
  });
}

/** Every entry under `dir` with its permission bits, the directory itself first. */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = { '.': (statSync(dir).mode & 0o777).toString(8) };
  for (const entry of readdirSync(dir, { recursive: true }).map(String))
    found[entry] = (statSync(join(dir, entry)).mode & 0o777).toString(8);
  return found;
}

function assertPrivate(dir: string): void {
  const found = modes(dir);
  for (const [entry, mode] of Object.entries(found)) {
    const isDir = statSync(join(dir, entry)).isDirectory();
    const isScript = entry.startsWith('confinement/') && entry.endsWith('.sh');
    assert.equal(mode, isDir || isScript ? '700' : '600', `${entry} in ${JSON.stringify(found)}`);
  }
}

describe('data directory permissions', () => {
  it('warden serve creates the directory 0700 and every file 0600 under umask 022', async (t) => {
    const session = await startCommandSession(t);
    const serve = wardenWithUmask022(['serve', '--port', '0', '--data-dir', session.dataDir], session.env);
    t.after(() => {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    });
    await serve.waitFor('stdout', /Press Ctrl-C to stop\./);
    const files = Object.keys(modes(session.dataDir));
    for (const name of ['warden.db', 'warden.db-wal', 'server-token'])
      assert.ok(files.includes(name), `${name} in ${files.join(', ')}`);
    assertPrivate(session.dataDir);
    assert.doesNotMatch(serve.stderr(), /tightened/, 'nothing to report for a directory it made');
    serve.child.kill('SIGINT');
    assert.deepEqual(await serve.exited, { code: 0, signal: null });
    assertPrivate(session.dataDir);
  });

  it('tightens a 0755 directory and its 0644 files at start, and says so', async (t) => {
    const session = await startCommandSession(t);
    mkdirSync(join(session.dataDir, 'old'), { recursive: true, mode: 0o755 });
    chmodSync(session.dataDir, 0o755);
    writeFileSync(join(session.dataDir, 'notes.txt'), 'private', { mode: 0o644 });
    writeFileSync(join(session.dataDir, 'old', 'more.txt'), 'private', { mode: 0o666 });
    chmodSync(join(session.dataDir, 'old', 'more.txt'), 0o666);
    const serve = wardenWithUmask022(['serve', '--port', '0', '--data-dir', session.dataDir], session.env);
    t.after(() => {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    });
    await serve.waitFor('stdout', /Press Ctrl-C to stop\./);
    assertPrivate(session.dataDir);
    const stderr = serve.stderr();
    assert.match(stderr, new RegExp(`tightened ${session.dataDir} from 0755 to 0700`));
    assert.match(stderr, /notes\.txt from 0644 to 0600/);
    assert.match(stderr, /more\.txt from 0666 to 0600/);
    serve.child.kill('SIGINT');
    assert.deepEqual(await serve.exited, { code: 0, signal: null });
  });

  it('warden run tightens the directory it is given, too', async (t) => {
    const script = scenario().on('hello').thenAnswer('hi there').build();
    const session = await startCommandSession(t, script);
    mkdirSync(session.dataDir, { mode: 0o755 });
    chmodSync(session.dataDir, 0o755);
    const run = wardenWithUmask022(
      ['run', '[[hello]] say hi', '--cwd', session.scratch.cwd, '--data-dir', session.dataDir],
      session.env,
    );
    assert.deepEqual(await run.exited, { code: 0, signal: null }, run.stderr());
    assert.match(run.stderr(), new RegExp(`tightened ${session.dataDir} from 0755 to 0700`));
    assertPrivate(session.dataDir);
  });

  it('refuses a data directory owned by another user', { skip: process.getuid?.() !== 0 }, async (t) => {
    const session = await startCommandSession(t);
    mkdirSync(session.dataDir, { mode: 0o755 });
    chmodSync(session.dataDir, 0o755);
    chownSync(session.dataDir, 65534, 65534);
    const serve = wardenWithUmask022(['serve', '--port', '0', '--data-dir', session.dataDir], session.env);
    t.after(() => {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    });
    const outcome = await Promise.race([
      serve.exited,
      serve.waitFor('stdout', /Press Ctrl-C to stop\./).then(() => 'started'),
    ]);
    assert.deepEqual(outcome, { code: 1, signal: null }, serve.stderr());
    assert.match(serve.stderr(), /is owned by another user \(uid 65534\)/);
    assert.deepEqual(readdirSync(session.dataDir), [], 'nothing was written into it');
    assert.equal(statSync(session.dataDir).mode & 0o777, 0o755, 'and its mode was left alone');
  });
});
