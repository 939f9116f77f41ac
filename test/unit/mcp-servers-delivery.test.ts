// How MCP servers reach the CLI: over stdin in `initialize` by default (the official SDK 0.3.333's
// default), on argv when asked or when the CLI's version on disk is known to be older than 2.1.326; what an
// answer without `mcp_servers_applied` means (a CLI too old: the session ends), and the hint on the exit of
// a CLI that does not know `--await-initialize`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';

import { CliTooOldError, ProcessExitError } from '../../src/protocol/errors.js';
import { buildCliArgs } from '../../src/session/cli-args.js';
import { compareVersions, readsMcpServersFromInitialize } from '../../src/session/cli-capabilities.js';
import { buildInitializeRequest } from '../../src/session/initialize-request.js';
import { checkMcpServersApplied, withAwaitInitializeHint } from '../../src/session/mcp-delivery-check.js';
import { pinnedClaudePath } from '../../src/testing/index.js';

const servers = { db: { type: 'stdio' as const, command: 'db-server', env: { TOKEN: 'secret' } } };

test('by default the servers travel in initialize and not on argv', () => {
  const args = buildCliArgs({ mcpServers: servers });
  assert.ok(args.includes('--await-initialize'));
  assert.ok(!args.includes('--mcp-config'));
  assert.ok(!args.join(' ').includes('secret'));
  assert.deepEqual(buildInitializeRequest({ mcpServers: servers }, undefined, []).mcpServers, servers);
});

test("a CLI known to be older than 2.1.326 gets them on argv unless 'initialize' is asked for", () => {
  const old = { readsMcpServersFromInitialize: false };
  const args = buildCliArgs({ mcpServers: servers }, old);
  assert.ok(args.includes('--mcp-config'));
  assert.ok(!args.includes('--await-initialize'));
  assert.equal(buildInitializeRequest({ mcpServers: servers }, undefined, [], old).mcpServers, undefined);
  const asked = buildCliArgs({ mcpServers: servers, mcpServersDelivery: 'initialize' }, old);
  assert.ok(!asked.includes('--mcp-config'));
  // An unknown version is treated as new, as the official SDK treats every CLI.
  assert.ok(
    !buildCliArgs({ mcpServers: servers }, { readsMcpServersFromInitialize: undefined }).includes(
      '--mcp-config',
    ),
  );
});

test("'argv' keeps the servers on the command line; in-process servers never go there", () => {
  const args = buildCliArgs({ mcpServers: servers, mcpServersDelivery: 'argv' });
  assert.ok(args.includes('--mcp-config'));
  assert.ok(!args.includes('--await-initialize'));
  assert.equal(
    buildInitializeRequest({ mcpServers: servers, mcpServersDelivery: 'argv' }, undefined, []).mcpServers,
    undefined,
  );
  assert.ok(!buildCliArgs({}).includes('--await-initialize'), 'no servers, no wait');
});

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-delivery-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the version on disk says whether the CLI reads servers from initialize', (t) => {
  assert.equal(readsMcpServersFromInitialize(pinnedClaudePath(process.cwd(), {})), true);
  const dir = tempDir(t);
  const named = (version: string) => {
    mkdirSync(join(dir, version), { recursive: true });
    writeFileSync(join(dir, version, 'claude'), '');
    return join(dir, version, 'claude');
  };
  assert.equal(readsMcpServersFromInitialize(named('2.1.325')), false);
  assert.equal(readsMcpServersFromInitialize(named('2.1.326')), true);
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'claude'), '');
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@anthropic-ai/claude-agent-sdk-linux-x64', version: '0.3.300' }),
  );
  assert.equal(readsMcpServersFromInitialize(join(pkg, 'claude')), false);
  assert.equal(readsMcpServersFromInitialize(join(dir, 'missing')), undefined);
  assert.equal(
    compareVersions('2.1.333', '2.1.326') !== undefined && compareVersions('2.1.333', '2.1.326')! > 0,
    true,
  );
  assert.equal(compareVersions('2.1.326-beta.1', '2.1.326'), 0);
  assert.equal(compareVersions('next', '2.1.326'), undefined);
});

test('an answer without mcp_servers_applied ends the session with CliTooOldError; false only warns', () => {
  const warnings: string[] = [];
  const warn = (_text: string, code: string) => warnings.push(code);
  const tooOld = checkMcpServersApplied({ claude_code_version: '2.1.300' }, warn);
  assert.ok(tooOld instanceof CliTooOldError);
  assert.equal(tooOld.code, 'CLI_TOO_OLD');
  assert.equal(tooOld.cliVersion, '2.1.300');
  assert.match(tooOld.message, /version 2\.1\.300.*too old.*mcpServersDelivery: 'argv'/s);
  assert.equal(checkMcpServersApplied({ mcp_servers_applied: true }, warn), undefined);
  assert.deepEqual(warnings, []);
  assert.equal(checkMcpServersApplied({ mcp_servers_applied: false }, warn), undefined);
  assert.deepEqual(warnings, ['CLAUDE_SDK_MCP_SERVERS_NOT_APPLIED']);
});

test('the exit of a CLI that does not know --await-initialize says what to change', () => {
  const exit = new ProcessExitError(1, null, "error: unknown option '--await-initialize'\n");
  const hinted = withAwaitInitializeHint(exit);
  assert.ok(hinted instanceof ProcessExitError);
  assert.equal(hinted.code, 'PROCESS_EXITED');
  assert.equal(hinted.exitCode, 1);
  assert.match(
    hinted.message,
    /^Claude Code process exited with code 1\. stderr: .*2\.1\.326 or newer.*'argv'/s,
  );
  const other = new ProcessExitError(1, null, 'something else');
  assert.equal(withAwaitInitializeHint(other), other);
});
