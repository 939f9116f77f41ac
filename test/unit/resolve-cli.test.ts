// Where the Claude Code executable comes from: explicit option, CLAUDE_CODE_EXECUTABLE, PATH, then an
// installed package; and a CliNotFoundError that says what to install when there is none.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';

import { CliNotFoundError } from '../../src/protocol/errors.js';
import { pinnedClaudePath, platformPackageNames, resolveClaudeExecutable } from '../../src/testing/index.js';

const run = promisify(execFile);

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-resolve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function executable(dir: string, name = 'claude', mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, mode);
  return path;
}

void test('the explicit option wins over everything', (t) => {
  const dir = tempDir(t);
  const chosen = executable(join(dir, 'chosen'), 'my-claude');
  const onPath = executable(join(dir, 'bin'));
  const env = { PATH: join(dir, 'bin'), CLAUDE_CODE_EXECUTABLE: onPath };
  assert.equal(resolveClaudeExecutable({ explicit: chosen, env }), chosen);
  // A bare command name is left for the spawner to look up.
  assert.equal(resolveClaudeExecutable({ explicit: 'claude-nightly', env }), 'claude-nightly');
});

void test('CLAUDE_CODE_EXECUTABLE wins over PATH, and PATH over installed packages', (t) => {
  const dir = tempDir(t);
  const fromEnv = executable(join(dir, 'env'), 'claude-env');
  const onPath = executable(join(dir, 'bin'));
  assert.equal(
    resolveClaudeExecutable({ env: { PATH: join(dir, 'bin'), CLAUDE_CODE_EXECUTABLE: fromEnv } }),
    fromEnv,
  );
  assert.equal(
    resolveClaudeExecutable({ env: { PATH: `${join(dir, 'empty')}:${join(dir, 'bin')}` } }),
    onPath,
  );
});

void test('a PATH entry that is not executable is skipped', (t) => {
  const dir = tempDir(t);
  executable(join(dir, 'first'), 'claude', 0o644);
  const second = executable(join(dir, 'second'));
  assert.equal(
    resolveClaudeExecutable({ env: { PATH: `${join(dir, 'first')}:${join(dir, 'second')}` } }),
    second,
  );
});

void test('without PATH the installed agent-sdk platform package is found', () => {
  const found = resolveClaudeExecutable({ env: { PATH: '' } });
  assert.equal(found, pinnedClaudePath());
  assert.ok(found.endsWith(join(platformPackageNames()[0]!, 'claude')), found);
});

void test('an installed @anthropic-ai/claude-code is found through its bin entry, from the cwd', (t) => {
  const dir = tempDir(t);
  const pkg = join(dir, 'node_modules', '@anthropic-ai', 'claude-code');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@anthropic-ai/claude-code', bin: { claude: 'cli.js' } }),
  );
  writeFileSync(join(pkg, 'cli.js'), '');
  assert.equal(resolveClaudeExecutable({ env: { PATH: '' }, cwd: dir }), join(pkg, 'cli.js'));
});

void test('pinnedClaudePath ignores PATH and the environment', (t) => {
  const dir = tempDir(t);
  const onPath = executable(join(dir, 'bin'));
  const saved = process.env.CLAUDE_CODE_EXECUTABLE;
  process.env.CLAUDE_CODE_EXECUTABLE = onPath;
  t.after(() => {
    if (saved === undefined) delete process.env.CLAUDE_CODE_EXECUTABLE;
    else process.env.CLAUDE_CODE_EXECUTABLE = saved;
  });
  assert.equal(resolveClaudeExecutable({ env: { PATH: join(dir, 'bin') } }), onPath);
  assert.notEqual(pinnedClaudePath(), onPath);
  assert.ok(pinnedClaudePath().includes('claude-agent-sdk-'));
});

void test('a chosen path that does not exist is a CliNotFoundError naming its source', (t) => {
  const missing = join(tempDir(t), 'nope', 'claude');
  assert.throws(
    () => resolveClaudeExecutable({ explicit: missing }),
    (error: unknown) =>
      error instanceof CliNotFoundError &&
      error.code === 'CLI_NOT_FOUND' &&
      error.message.includes('explicit'),
  );
  assert.throws(
    () => resolveClaudeExecutable({ env: { CLAUDE_CODE_EXECUTABLE: missing } }),
    (error: unknown) => error instanceof CliNotFoundError && error.message.includes('CLAUDE_CODE_EXECUTABLE'),
  );
});

void test('bad options throw TypeError at once', () => {
  assert.throws(() => resolveClaudeExecutable({ explicit: '' }), TypeError);
  assert.throws(() => resolveClaudeExecutable({ explicit: 5 as never }), TypeError);
  assert.throws(() => resolveClaudeExecutable({ cwd: '' }), TypeError);
  assert.throws(() => resolveClaudeExecutable(null as never), TypeError);
});

void test('platform package names put the likely libc first', () => {
  assert.deepEqual(platformPackageNames('darwin', 'arm64'), ['@anthropic-ai/claude-agent-sdk-darwin-arm64']);
  assert.deepEqual(
    new Set(platformPackageNames('linux', 'x64')),
    new Set(['@anthropic-ai/claude-agent-sdk-linux-x64', '@anthropic-ai/claude-agent-sdk-linux-x64-musl']),
  );
});

void test(
  'with nothing installed for this platform the error says what to install',
  { timeout: 30_000 },
  async (t) => {
    // A child process that pretends to run on an architecture no package exists for, with an empty PATH.
    const moduleUrl = new URL('../../src/session/resolve-cli.ts', import.meta.url).href;
    const program = `
    Object.defineProperty(process, 'arch', { value: 'mips' });
    const { resolveClaudeExecutable, pinnedClaudePath } = await import(${JSON.stringify(moduleUrl)});
    const outcome = (fn) => { try { return fn(); } catch (error) { return { name: error.name, code: error.code, message: error.message }; } };
    console.log(JSON.stringify([outcome(() => resolveClaudeExecutable({ env: { PATH: '' } })), outcome(() => pinnedClaudePath())]));
  `;
    // The temporary cwd has no node_modules: load tsx by its resolved URL.
    const tsx = import.meta.resolve('tsx');
    const { stdout } = await run(process.execPath, ['--import', tsx, '--input-type=module', '-e', program], {
      cwd: tempDir(t),
      env: { PATH: process.env.PATH ?? '' },
    });
    const [resolved, pinned] = JSON.parse(stdout) as { name: string; code: string; message: string }[];
    assert.deepEqual([resolved?.name, resolved?.code], ['CliNotFoundError', 'CLI_NOT_FOUND']);
    assert.match(resolved!.message, /npm install @anthropic-ai\/claude-agent-sdk/);
    assert.match(resolved!.message, /CLAUDE_CODE_EXECUTABLE/);
    assert.deepEqual([pinned?.name, pinned?.code], ['CliNotFoundError', 'CLI_NOT_FOUND']);
    assert.match(pinned!.message, /claude-agent-sdk-linux-mips/);
  },
);
