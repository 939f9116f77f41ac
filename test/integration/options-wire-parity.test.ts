// Both SDKs start the same recording stand-in CLI with the same options; the argv, the environment
// variables the options set and the initialize request must come out the same, field by field. Every
// option of the official Options type that reaches the CLI is covered by one of the cases below.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as official from '@anthropic-ai/claude-agent-sdk';

import * as warden from '../../src/index.js';

const RECORDER = fileURLToPath(new URL('../fixtures/record-cli.mjs', import.meta.url));
const ENV_KEYS = [
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_AGENT_SDK_VERSION',
  'CLAUDE_CODE_SDK_READS_SESSION_STATE',
  'CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING',
  'CLAUDE_CODE_QUESTION_PREVIEW_FORMAT',
  'CLAUDE_CODE_AGENT_PROGRESS_SUMMARIES',
  'BUN_ENABLE_CRASH_REPORTING',
  'DEBUG',
];
const dir = mkdtempSync(join(tmpdir(), 'warden-parity-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type AnyOptions = Record<string, unknown>;
interface Recording {
  argv: string[];
  env: Record<string, string | null>;
  first: { request: Record<string, unknown> };
}

let runs = 0;
async function record(sdk: 'official' | 'warden', options: AnyOptions): Promise<Recording> {
  const file = join(dir, `run-${(runs += 1)}.json`);
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    RECORD_FILE: file,
    RECORD_ENV_KEYS: ENV_KEYS.join(','),
    CLAUDE_AGENT_SDK_DISABLE_MCP_MANIFESTS: '1',
  };
  const full = {
    pathToClaudeCodeExecutable: RECORDER,
    env,
    cwd: dir,
    onWarning: () => undefined,
    ...options,
  };
  const run = (sdk === 'official' ? official.query : warden.query) as (
    args: unknown,
  ) => AsyncIterable<unknown>;
  try {
    for await (const _ of run({ prompt: 'hi', options: full })) void _;
  } catch {
    // The stand-in exits without answering: both SDKs end with an error, which is not what is compared.
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Recording;
}

/** The initialize body without the request envelope's own fields. */
function body(recording: Recording): Record<string, unknown> {
  const { request } = recording.first;
  return JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
}

async function assertSame(options: AnyOptions): Promise<Recording> {
  const theirs = await record('official', options);
  const ours = await record('warden', options);
  assert.deepEqual(ours.argv, theirs.argv, 'argv');
  assert.deepEqual(ours.env, theirs.env, 'environment');
  assert.deepEqual(body(ours), body(theirs), 'initialize request');
  return ours;
}

const allow = (): Promise<{ behavior: 'allow'; updatedInput: Record<string, unknown> }> =>
  Promise.resolve({ behavior: 'allow', updatedInput: {} });

describe('options reach the CLI as the official SDK sends them', { timeout: 120_000 }, () => {
  it('the argv options, all at once', async () => {
    const { argv, env } = await assertSame({
      thinking: { type: 'enabled', budgetTokens: 2048, display: 'summarized' },
      effort: 'high',
      maxTurns: 3,
      maxBudgetUsd: 1.5,
      taskBudget: { total: 50_000 },
      model: 'claude-x',
      agent: 'reviewer',
      agents: { reviewer: { description: 'Reviews', prompt: 'Review it.' } },
      betas: ['context-1m-2025-08-07'],
      outputFormat: {
        type: 'json_schema',
        schema: { type: 'object', properties: { a: { type: 'string' } } },
      },
      debugFile: join(dir, 'debug.log'),
      canUseTool: allow,
      permissionPrompts: 'host',
      resume: '11111111-2222-4333-8444-555555555555',
      allowedTools: ['Read'],
      skills: ['pdf', 'docx'],
      disallowedTools: ['WebFetch'],
      tools: ['Read', 'Bash'],
      mcpServers: { remote: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { a: 'b' } } },
      settingSources: ['project'],
      strictMcpConfig: true,
      permissionMode: 'acceptEdits',
      allowDangerouslySkipPermissions: true,
      fallbackModel: 'claude-y',
      includeHookEvents: true,
      includePartialMessages: true,
      projectConfigRoot: dir,
      additionalDirectories: ['/a', '/b'],
      plugins: [
        { type: 'local', path: '/plugins/one' },
        { type: 'local', path: '/plugins/two', skipMcpDiscovery: true },
      ],
      forkSession: true,
      resumeSessionAt: '22222222-2222-4333-8444-555555555555',
      resumeDropsTurn: '33333333-2222-4333-8444-555555555555',
      sessionId: '44444444-2222-4333-8444-555555555555',
      persistSession: false,
      managedSettings: { permissions: { deny: ['Bash(rm:*)'] } },
      settings: { model: 'claude-z', permissions: { allow: ['Read'] } },
      sandbox: { enabled: true, network: { allowedDomains: ['example.com'] } },
      extraArgs: { 'some-flag': null, 'some-value': '-v' },
      executableArgs: ['--no-warnings'],
      enableFileCheckpointing: true,
      toolConfig: { askUserQuestion: { previewFormat: 'html' } },
    });
    // The recording is what the options made, not two empty command lines.
    for (const flag of [
      '--max-thinking-tokens=2048',
      '--effort=high',
      '--no-session-persistence',
      '--strict-mcp-config',
    ])
      assert.ok(argv.includes(flag), flag);
    assert.ok(argv.some((arg) => arg.startsWith('--json-schema=')));
    assert.equal(env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING, 'true');
  });

  it('the initialize options, all at once', async () => {
    const recording = await assertSame({
      systemPrompt: {
        type: 'preset',
        preset: 'claude_code',
        append: 'Be brief.',
        excludeDynamicSections: true,
        snapshot: true,
      },
      planModeInstructions: 'Plan carefully.',
      toolAliases: { Bash: 'mcp__workspace__bash' },
      title: 'A title',
      skills: ['pdf'],
      promptSuggestions: true,
      agentProgressSummaries: true,
      forwardSubagentText: true,
      onUserDialog: () => Promise.resolve({ behavior: 'cancelled' }),
      supportedDialogKinds: ['refusal_fallback_prompt'],
      onElicitation: () => Promise.resolve({ action: 'decline' }),
      perTaskStopAffordance: true,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [() => Promise.resolve({})], timeout: 5 }] },
      outputFormat: { type: 'json_schema', schema: { type: 'object' } },
    });
    const sent = body(recording);
    assert.equal(sent.title, 'A title');
    assert.deepEqual(sent.jsonSchema, { type: 'object' });
    assert.deepEqual(sent.supportedDialogKinds, ['refusal_fallback_prompt']);
  });

  for (const [name, options] of Object.entries<AnyOptions>({
    'thinking adaptive with display': { thinking: { type: 'adaptive', display: 'omitted' } },
    'thinking disabled': { thinking: { type: 'disabled' } },
    'thinking enabled without a budget': { thinking: { type: 'enabled' } },
    maxThinkingTokens: { maxThinkingTokens: 4096 },
    'maxThinkingTokens 0': { maxThinkingTokens: 0 },
    'effort alone': { effort: 'max' },
    'debug without a file': { debug: true },
    'permissionPrompts none': { permissionPrompts: 'none' },
    permissionPromptToolName: { permissionPromptToolName: 'mcp__x__ask' },
    continue: { continue: true },
    'skills all': { skills: 'all', allowedTools: ['Skill', 'Read'] },
    'tools preset': { tools: { type: 'preset', preset: 'claude_code' } },
    'settings as a path': { settings: '/etc/claude/settings.json' },
    'settings as JSON text with a sandbox merged': {
      settings: JSON.stringify({
        sandbox: { filesystem: { disabled: true, denyRead: ['/x'] }, network: { httpProxyPort: 1 } },
      }),
      sandbox: { filesystem: { denyRead: ['/y'] }, network: { deniedDomains: ['evil.example'] } },
    },
    'sandbox alone': { sandbox: { enabled: false, autoAllowBashIfSandboxed: true } },
    'mcpServersDelivery initialize': {
      mcpServers: { local: { command: 'node', args: ['server.js'], env: { SECRET: 's' } } },
      mcpServersDelivery: 'initialize',
    },
    'mcpServersDelivery argv': { mcpServers: { local: { command: 'node' } }, mcpServersDelivery: 'argv' },
    'mcpServersDelivery unset (initialize by default)': {
      mcpServers: { local: { command: 'node', env: { SECRET: 's' } } },
    },
    'pluginDelivery initialize': { plugins: [{ type: 'local', path: '/p' }], pluginDelivery: 'initialize' },
    'a custom system prompt': { systemPrompt: { type: 'custom', prompt: 'You are a bot.', snapshot: false } },
    'a system prompt as blocks': { systemPrompt: ['one', 'two'] },
    'a string system prompt': { systemPrompt: 'plain' },
    'a session store': { sessionStore: new official.InMemorySessionStore(), sessionStoreFlush: 'eager' },
    'toolConfig markdown': { toolConfig: { askUserQuestion: { previewFormat: 'markdown' } } },
  })) {
    it(name, async () => {
      await assertSame(options);
    });
  }

  it('spawnClaudeCodeProcess receives the same command line and environment', async () => {
    const seen: Record<string, { command: string; args: string[]; env: Record<string, string | undefined> }> =
      {};
    for (const sdk of ['official', 'warden'] as const) {
      await record(sdk, {
        model: 'claude-x',
        spawnClaudeCodeProcess: (spawnOptions: {
          command: string;
          args: string[];
          cwd?: string;
          env: Record<string, string | undefined>;
        }) => {
          seen[sdk] = spawnOptions;
          return spawn(spawnOptions.command, spawnOptions.args, {
            cwd: spawnOptions.cwd,
            env: spawnOptions.env,
            stdio: ['pipe', 'pipe', 'ignore'],
          });
        },
      });
    }
    assert.equal(seen.warden?.command, seen.official?.command);
    assert.deepEqual(seen.warden?.args, seen.official?.args);
    for (const key of ENV_KEYS) assert.equal(seen.warden?.env[key], seen.official?.env[key], key);
  });
});
