// A port that is taken: `warden serve` and `warden demo` say so in one line — which address, and what to
// do (another --port) — and exit 1 without a stack trace; the demo removes its temporary directory.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { describe, it, type TestContext } from 'node:test';

import { spawnWarden, startCommandSession } from './helpers/server-command.js';

/** A port something else listens on, for as long as the test runs. */
async function takenPort(t: TestContext): Promise<number> {
  const squatter = createServer();
  squatter.listen(0, '127.0.0.1');
  await once(squatter, 'listening');
  t.after(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
  return (squatter.address() as AddressInfo).port;
}

function assertOneLine(stderr: string, port: number): void {
  assert.equal(
    stderr,
    `warden: 127.0.0.1:${port} is already in use (another warden serve, or another program): stop that, ` +
      'or pass --port N for another port (--port 0 picks a free one)\n',
  );
}

describe('a busy port', { timeout: 60_000 }, () => {
  it('warden serve says which address is taken and what to do, exit 1', async (t) => {
    const session = await startCommandSession(t);
    const port = await takenPort(t);
    const serve = spawnWarden(['serve', '--port', String(port), '--data-dir', session.dataDir], session.env, {
      closeStdin: true,
    });
    assert.deepEqual(await serve.exited, { code: 1, signal: null }, serve.stderr());
    assertOneLine(serve.stderr(), port);
    assert.equal(serve.stdout(), '', 'no banner for a server that is not running');
  });

  it('warden demo says the same, and leaves no temporary directory', async (t) => {
    const session = await startCommandSession(t);
    const port = await takenPort(t);
    const env = { PATH: session.env.PATH!, HOME: session.scratch.home, TMPDIR: session.scratch.tmpdir };
    const demo = spawnWarden(['demo', '--port', String(port)], env, { closeStdin: true });
    assert.deepEqual(await demo.exited, { code: 1, signal: null }, demo.stderr());
    assertOneLine(demo.stderr(), port);
    assert.deepEqual(
      readdirSync(session.scratch.tmpdir).filter((name) => name.startsWith('warden-demo-')),
      [],
      'the demo removed its temporary directory',
    );
  });
});
