// The testkit's environment helpers: offlineClaudeEnv, createScratch and fakeCliPath, and that a CLI run
// with them talks to nobody but the mock and keeps its state inside the scratch directories.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { test } from 'node:test';

import {
  createScratch,
  FAKE_CLI_MODES,
  fakeCliArgs,
  fakeCliPath,
  OFFLINE_API_KEY,
  offlineClaudeEnv,
  scenario,
} from '../../src/testing/index.js';
import { assertCleanEnd } from './helpers/assertions.js';
import { startOfflineCli } from './helpers/offline-cli.js';

void test('offlineClaudeEnv is a complete environment that takes nothing but PATH (and the test run id) from the host', () => {
  const env = offlineClaudeEnv({ mockUrl: 'http://127.0.0.1:9', home: '/h', tmpdir: '/t' });
  assert.deepEqual(
    { ...env, IS_SANDBOX: undefined },
    {
      PATH: process.env.PATH,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      ANTHROPIC_API_KEY: OFFLINE_API_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      HOME: '/h',
      CLAUDE_CODE_TMPDIR: '/t',
      TMPDIR: '/t',
      IS_SANDBOX: undefined,
      // The test runner's id for its own processes (scripts/test.mjs), passed on when there is one.
      ...(process.env.WARDEN_TEST_RUN === undefined ? {} : { WARDEN_TEST_RUN: process.env.WARDEN_TEST_RUN }),
    },
  );
  assert.equal(env.IS_SANDBOX, process.getuid?.() === 0 ? '1' : undefined);
  const tuned = offlineClaudeEnv({
    mockUrl: 'http://127.0.0.1:9',
    extra: { CLAUDE_CODE_MAX_RETRIES: '1', TMPDIR: undefined },
  });
  assert.equal(tuned.CLAUDE_CODE_MAX_RETRIES, '1');
  assert.equal('HOME' in tuned, false);
  assert.throws(() => offlineClaudeEnv({ mockUrl: 'localhost:9' }), TypeError);
  assert.throws(() => offlineClaudeEnv({ mockUrl: 'http://127.0.0.1:9', home: '' }), TypeError);
  assert.throws(() => offlineClaudeEnv(undefined as never), TypeError);
});

void test('createScratch makes private directories and cleanup is idempotent', () => {
  const scratch = createScratch();
  try {
    for (const dir of [scratch.home, scratch.tmpdir, scratch.cwd]) {
      assert.ok(dir.startsWith(scratch.dir + sep));
      assert.ok(statSync(dir).isDirectory());
    }
    assert.equal(statSync(scratch.tmpdir).mode & 0o777, 0o700);
  } finally {
    scratch.cleanup();
    scratch.cleanup();
  }
  assert.equal(existsSync(scratch.dir), false);
  assert.throws(() => createScratch('a/b'), TypeError);
});

void test('fakeCliPath points at the packaged fixture and the modes are listed once each', () => {
  const path = fakeCliPath();
  assert.ok(isAbsolute(path));
  assert.ok(path.endsWith(join('test', 'fixtures', 'fake-cli.mjs')), path);
  assert.equal(new Set(FAKE_CLI_MODES).size, FAKE_CLI_MODES.length);
  assert.ok(FAKE_CLI_MODES.includes('echo') && FAKE_CLI_MODES.includes('setsid-grandchild'));
});

void test(
  'the offline CLI only calls the mock and keeps its state in the scratch HOME',
  { timeout: 90_000 },
  async (t) => {
    // bypassPermissions as root works only because offlineClaudeEnv sets IS_SANDBOX there.
    const script = scenario()
      .on('quiet')
      .callTool('Bash', { command: 'touch bypassed.txt', description: 'Create a file' })
      .thenAnswer('created')
      .build();
    const { cli, mock, scratch } = await startOfflineCli(t, {
      script,
      args: ['--permission-mode', 'bypassPermissions'],
    });
    await cli.initialize();
    await cli.sendUserText('[[quiet]] create a file without asking');
    const result = await cli.waitFor((f) => f.type === 'result');
    assert.equal(result.result, 'created');
    assert.equal(
      cli.frames.some((f) => f.type === 'control_request'),
      false,
      'nothing was asked',
    );
    assert.equal(existsSync(join(scratch.cwd, 'bypassed.txt')), true);

    assert.deepEqual(
      mock.requests.map((r) => `${r.method} ${r.path} ${r.kind}`),
      ['POST /v1/messages main', 'POST /v1/messages main'],
    );
    const projects = join(scratch.home, '.claude', 'projects');
    const transcripts = readdirSync(projects, { recursive: true }).map(String);
    assert.ok(
      transcripts.some((file) => file.endsWith(`${result.session_id}.jsonl`)),
      `session transcript in the scratch HOME: ${transcripts.join(', ')}`,
    );
    await assertCleanEnd(cli, scratch);
  },
);

void test('the fake CLI runs in the mode fakeCliArgs names', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, fakeCliArgs('echo'), { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stdin.end('{"type":"ping"}\n');
  // 'close' waits for stdout to end as well as for the exit.
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 0);
  const frames = output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; seq: number });
  assert.deepEqual(
    frames.map((frame) => [frame.type, frame.seq]),
    [['echo', 0]],
  );
  assert.throws(() => process.kill(child.pid!, 0), { code: 'ESRCH' });
  assert.throws(() => fakeCliArgs('nope' as never), TypeError);
});
