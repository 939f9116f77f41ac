// MCP servers sent over stdin (the default) to a CLI that cannot take them: one that answers initialize
// without `mcp_servers_applied` (older than 2.1.326) ends the query with CliTooOldError before any prompt
// is written; one that does not know `--await-initialize` exits, and its ProcessExitError says why and
// what to change. Either way no process is left.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { CliTooOldError, ProcessExitError, query } from '../../src/index.js';
import { spawnTransport } from '../../src/transport/child-transport.js';
import type { CliTransport } from '../../src/transport/cli-transport.js';
import { assertError, collect, fakeRun } from './helpers/sdk-fake.js';
import { assertNoProcess } from './transport-helpers.js';

const servers = { db: { type: 'stdio' as const, command: 'db-server', env: { TOKEN: 'secret' } } };

describe('MCP servers over stdin to a CLI that cannot read them', { timeout: 20_000 }, () => {
  it('an initialize answer without mcp_servers_applied ends the query before the prompt', async (t) => {
    const fake = fakeRun(t, 'hang-mid-turn');
    const q = query({ prompt: 'hello', options: { ...fake.options, mcpServers: servers } });
    const { messages, error } = await collect(q);
    assertError(error, CliTooOldError, 'CLI_TOO_OLD');
    assert.match(error.message, /too old to read MCP servers over stdin.*mcpServersDelivery: 'argv'/s);
    assert.deepEqual(messages, []);
    await q.closed;
    const received = fake.report().received.map(({ frame }) => frame);
    assert.equal(received[0]?.request?.subtype, 'initialize');
    assert.deepEqual(received[0]?.request?.mcpServers, servers, 'the servers went over stdin');
    assert.equal(
      received.some((frame) => frame.type === 'user'),
      false,
      'no prompt was written',
    );
    await assertNoProcess(await fake.pid);
  });

  it('a CLI the query joins (attaching) is not asked whether it took the servers', async (t) => {
    const fake = fakeRun(t, 'hang-mid-turn');
    const q = query({
      prompt: 'hello',
      options: {
        ...fake.options,
        mcpServers: servers,
        // The same fake, presented as a CLI that was already running when this host came.
        cliTransport: async (launch): Promise<CliTransport> => {
          const inner = await spawnTransport(launch);
          return {
            pid: inner.pid,
            exited: inner.exited,
            attaching: true,
            frames: () => inner.frames(),
            send: (frame) => inner.send(frame),
            endInput: () => inner.endInput(),
            close: () => inner.close(),
          };
        },
      },
    });
    const first = await q.next();
    assert.equal(first.done, false, 'the turn started: the prompt was written');
    q.close();
    await q.closed;
    const received = fake.report().received.map(({ frame }) => frame);
    assert.ok(received.some((frame) => frame.type === 'user'));
    await assertNoProcess(await fake.pid);
  });

  it('a CLI that does not know --await-initialize exits with a hint', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-old-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const cli = join(dir, 'claude');
    writeFileSync(cli, `#!/bin/sh\necho "error: unknown option '--await-initialize'" >&2\nexit 1\n`);
    chmodSync(cli, 0o755);
    const q = query({
      prompt: 'hello',
      options: {
        pathToClaudeCodeExecutable: cli,
        env: { PATH: process.env.PATH },
        mcpServers: servers,
        // The writes that meet the exited CLI's closed stdin are reported as warnings (EPIPE).
        onWarning: () => undefined,
      },
    });
    const { error } = await collect(q);
    assertError(error, ProcessExitError, 'PROCESS_EXITED');
    assert.equal(error.exitCode, 1);
    assert.match(error.message, /^Claude Code process exited with code 1\. stderr: error: unknown option/);
    assert.match(error.message, /2\.1\.326 or newer.*mcpServersDelivery: 'argv'/s);
    const pid = await q.pid;
    await q.closed;
    assert.ok(pid !== undefined);
    await assertNoProcess(pid);
  });
});
