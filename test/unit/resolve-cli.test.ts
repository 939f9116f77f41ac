// Where the Claude Code executable comes from: the explicit option, CLAUDE_CODE_EXECUTABLE, the platform
// package bundled with Warden, and only without one `claude` on PATH or an installed package (with a warning
// naming its version); a CliNotFoundError that says what to install when there is none; and the CLI the
// tests run (pinnedClaudePath, WARDEN_TEST_CLI).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';

import { CliNotFoundError } from '../../src/protocol/errors.js';
import { installedClaudeVersion, locateClaudeExecutable } from '../../src/session/resolve-cli.js';
import { pinnedClaudePath, platformPackageNames, resolveClaudeExecutable } from '../../src/testing/index.js';

const run = promisify(execFile);
/** pinnedClaudePath() as it is without WARDEN_TEST_CLI: the bundled platform package. */
const bundled = pinnedClaudePath(process.cwd(), {});

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

/** A CLI laid out as the native installer does: bin/claude → versions/<version>. */
function nativeInstall(dir: string, version: string): string {
  const binary = executable(join(dir, 'versions'), version);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  symlinkSync(binary, join(dir, 'bin', 'claude'));
  return join(dir, 'bin');
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

void test('CLAUDE_CODE_EXECUTABLE wins over the bundled CLI and PATH', (t) => {
  const dir = tempDir(t);
  const fromEnv = executable(join(dir, 'env'), 'claude-env');
  executable(join(dir, 'bin'));
  const found = locateClaudeExecutable({ env: { PATH: join(dir, 'bin'), CLAUDE_CODE_EXECUTABLE: fromEnv } });
  assert.deepEqual(found, { path: fromEnv, source: 'env' });
});

void test('the platform package bundled with Warden wins over `claude` on PATH, without a warning', (t) => {
  const dir = tempDir(t);
  const warnings: CliNotFoundError[] = [];
  const found = locateClaudeExecutable({
    env: { PATH: nativeInstall(dir, '2.1.300') },
    onWarning: (warning) => warnings.push(warning),
  });
  assert.deepEqual(found, { path: bundled, source: 'bundled' });
  assert.ok(bundled.endsWith(join(platformPackageNames()[0]!, 'claude')), bundled);
  assert.deepEqual(warnings, []);
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
  assert.throws(() => resolveClaudeExecutable({ onWarning: 'x' as never }), TypeError);
  assert.throws(() => resolveClaudeExecutable(null as never), TypeError);
});

void test('platform package names put the likely libc first', () => {
  assert.deepEqual(platformPackageNames('darwin', 'arm64'), ['@anthropic-ai/claude-agent-sdk-darwin-arm64']);
  assert.deepEqual(
    new Set(platformPackageNames('linux', 'x64')),
    new Set(['@anthropic-ai/claude-agent-sdk-linux-x64', '@anthropic-ai/claude-agent-sdk-linux-x64-musl']),
  );
});

void test('the version of an installed CLI is read from disk, never by running it', (t) => {
  const dir = tempDir(t);
  assert.equal(installedClaudeVersion(join(nativeInstall(dir, '2.1.300'), 'claude')), '2.1.300');
  assert.equal(installedClaudeVersion(bundled), `0.3.333 (${platformPackageNames()[0]!})`);
  const pkg = join(dir, 'node_modules', '@anthropic-ai', 'claude-code');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@anthropic-ai/claude-code', version: '2.0.9' }),
  );
  assert.equal(installedClaudeVersion(executable(pkg, 'cli.js')), '2.0.9');
  assert.equal(installedClaudeVersion(executable(join(dir, 'plain'))), undefined);
  assert.equal(installedClaudeVersion(join(dir, 'missing')), undefined);
});

void test('pinnedClaudePath ignores PATH and CLAUDE_CODE_EXECUTABLE; WARDEN_TEST_CLI picks another CLI', (t) => {
  const dir = tempDir(t);
  const onPath = executable(join(dir, 'bin'));
  assert.equal(
    pinnedClaudePath(process.cwd(), { PATH: join(dir, 'bin'), CLAUDE_CODE_EXECUTABLE: onPath }),
    bundled,
  );
  assert.match(
    pinnedClaudePath(process.cwd(), { WARDEN_TEST_CLI: '2.1.328' }),
    /claude-code-2\.1\.328[/\\]claude$/,
  );
  assert.equal(pinnedClaudePath(process.cwd(), { WARDEN_TEST_CLI: onPath }), onPath);
  assert.throws(
    () => pinnedClaudePath(process.cwd(), { WARDEN_TEST_CLI: '9.9.9' }),
    (error: unknown) => error instanceof CliNotFoundError && /claude-code-9\.9\.9/.test(error.message),
  );
  assert.throws(
    () => pinnedClaudePath(process.cwd(), { WARDEN_TEST_CLI: join(dir, 'nope') }),
    CliNotFoundError,
  );
});

/**
 * Runs `body` in a child process that pretends to run on an architecture no platform package exists for
 * (so nothing is bundled), in `cwd`; prints what `body` returns (or the error it throws) as JSON.
 */
async function withoutBundledCli(t: TestContext, cwd: string, body: string): Promise<unknown> {
  const moduleUrl = new URL('../../src/session/resolve-cli.ts', import.meta.url).href;
  const program = `
    Object.defineProperty(process, 'arch', { value: 'mips' });
    const { locateClaudeExecutable, pinnedClaudePath } = await import(${JSON.stringify(moduleUrl)});
    const warnings = [];
    const onWarning = (w) => warnings.push(w.message);
    let outcome;
    try { outcome = (() => { ${body} })(); } catch (error) { outcome = { name: error.name, code: error.code, message: error.message }; }
    console.log(JSON.stringify({ outcome, warnings }));
  `;
  // The temporary cwd has no node_modules: load tsx by its resolved URL.
  const tsx = import.meta.resolve('tsx');
  const { stdout } = await run(process.execPath, ['--import', tsx, '--input-type=module', '-e', program], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
  });
  return JSON.parse(stdout) as unknown;
}

void test(
  'without a bundled CLI: `claude` on PATH, with a warning naming its version',
  { timeout: 30_000 },
  async (t) => {
    const dir = tempDir(t);
    const bin = nativeInstall(join(dir, 'claude'), '2.1.300');
    executable(join(dir, 'not-executable'), 'claude', 0o644);
    const path = `${join(dir, 'empty')}:${join(dir, 'not-executable')}:${bin}`;
    const { outcome, warnings } = (await withoutBundledCli(
      t,
      dir,
      `return locateClaudeExecutable({ env: { PATH: ${JSON.stringify(path)} }, onWarning });`,
    )) as { outcome: unknown; warnings: string[] };
    assert.deepEqual(outcome, { path: join(bin, 'claude'), source: 'path' });
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      /No Claude Code CLI is bundled with Warden \(@anthropic-ai\/claude-agent-sdk-linux-mips/,
    );
    assert.match(warnings[0]!, /`claude` on PATH, .*bin\/claude, version 2\.1\.300\./);
  },
);

void test(
  'without a bundled CLI or PATH: an installed @anthropic-ai/claude-code, from the cwd',
  { timeout: 30_000 },
  async (t) => {
    const dir = tempDir(t);
    const pkg = join(dir, 'node_modules', '@anthropic-ai', 'claude-code');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: '@anthropic-ai/claude-code', version: '2.0.9', bin: { claude: 'cli.js' } }),
    );
    writeFileSync(join(pkg, 'cli.js'), '');
    const { outcome, warnings } = (await withoutBundledCli(
      t,
      dir,
      `return locateClaudeExecutable({ env: { PATH: '' }, onWarning });`,
    )) as { outcome: unknown; warnings: string[] };
    assert.deepEqual(outcome, { path: join(pkg, 'cli.js'), source: 'installed' });
    assert.match(warnings[0] ?? '', /using an installed package, .*cli\.js, version 2\.0\.9\./);
  },
);

void test(
  'with nothing installed for this platform the error says what to install',
  { timeout: 30_000 },
  async (t) => {
    const dir = tempDir(t);
    const results = await Promise.all(
      [
        `return locateClaudeExecutable({ env: { PATH: '' } });`,
        'return pinnedClaudePath(process.cwd(), {});',
      ].map(
        (body) =>
          withoutBundledCli(t, dir, body) as Promise<{
            outcome: { name: string; code: string; message: string };
          }>,
      ),
    );
    const [resolved, pinned] = results.map((result) => result.outcome);
    assert.deepEqual([resolved?.name, resolved?.code], ['CliNotFoundError', 'CLI_NOT_FOUND']);
    assert.match(resolved!.message, /npm install @anthropic-ai\/claude-agent-sdk/);
    assert.match(resolved!.message, /CLAUDE_CODE_EXECUTABLE/);
    assert.deepEqual([pinned?.name, pinned?.code], ['CliNotFoundError', 'CLI_NOT_FOUND']);
    assert.match(pinned!.message, /claude-agent-sdk-linux-mips/);
  },
);
