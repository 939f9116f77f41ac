// MCP servers the CLI runs itself reach it over stdin in the `initialize` request by default (as the
// official SDK 0.3.333 sends them), so a secret in a server's env is not on the CLI's command line, where
// any user of the machine can read it in /proc/<pid>/cmdline; the server still starts with that env and its
// tool works. `mcpServersDelivery: 'argv'` keeps the old way, for CLIs before 2.1.326.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { query, type Options, type Query } from '../../src/index.js';
import { scenario } from '../../src/testing/index.js';
import { assertNoProcessLeft, collect, startSdkSession } from './helpers/sdk-session.js';

const SERVER = fileURLToPath(new URL('../fixtures/mcp-secret-server.mjs', import.meta.url));
const TOOL = 'mcp__vault__reveal';

async function run(t: import('node:test').TestContext, delivery: Options['mcpServersDelivery']) {
  const secret = `s3cret-${randomBytes(12).toString('hex')}`;
  const script = scenario()
    .on('vault')
    .callTool(TOOL, {})
    .thenAnswer((ctx) => `tool said ${ctx.toolResults[0]?.text ?? '?'}`)
    .build();
  const session = await startSdkSession(t, script);
  let cmdline: string | undefined;
  const q: Query = query({
    prompt: '[[vault]] reveal the secret',
    options: {
      ...session.options,
      ...(delivery === undefined ? {} : { mcpServersDelivery: delivery }),
      mcpServers: {
        vault: { type: 'stdio', command: process.execPath, args: [SERVER], env: { VAULT_TOKEN: secret } },
      },
      // Asked while the CLI runs: its command line is read then, as another user could read it.
      canUseTool: async (toolName, input) => {
        const pid = await q.pid;
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        return toolName === TOOL
          ? { behavior: 'allow', updatedInput: input }
          : { behavior: 'deny', message: 'not this one' };
      },
    },
  });
  const messages = await collect(q);
  const init = await q.initializationResult();
  return { secret, cmdline, init, messages, session };
}

describe('MCP servers over stdin at initialize, against the real CLI', { timeout: 120_000 }, () => {
  it('by default a secret in a server env is not on the command line, and the server works', async (t) => {
    const { secret, cmdline, init, messages, session } = await run(t, undefined);
    assert.ok(cmdline !== undefined && cmdline.includes('--await-initialize'), cmdline);
    assert.ok(!cmdline.includes(secret), 'the secret is not in /proc/<pid>/cmdline');
    assert.ok(!cmdline.includes('--mcp-config'), 'no --mcp-config flag');
    assert.equal(init.mcp_servers_applied, true);
    const result = messages.findLast((m) => m.type === 'result') as Record<string, unknown>;
    assert.equal(result.result, `tool said secret=${secret}`);
    assertNoProcessLeft(session);
  });

  it("mcpServersDelivery: 'argv' puts the servers on the command line, as before", async (t) => {
    const { secret, cmdline, init, messages, session } = await run(t, 'argv');
    assert.ok(cmdline !== undefined && cmdline.includes('--mcp-config'), cmdline);
    assert.ok(cmdline.includes(secret), 'argv delivery shows the secret on the command line');
    assert.equal(init.mcp_servers_applied, undefined);
    const result = messages.findLast((m) => m.type === 'result') as Record<string, unknown>;
    assert.equal(result.result, `tool said secret=${secret}`);
    assertNoProcessLeft(session);
  });
});
