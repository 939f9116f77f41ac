import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCliArgs } from '../../src/session/cli-args.js';
import { buildCliEnv } from '../../src/session/cli-env.js';
import { validateOptions } from '../../src/session/validate-options.js';

const BASE = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];

describe('buildCliArgs', () => {
  it('passes only the stream-json flags for no options', () => {
    assert.deepEqual(buildCliArgs({}), BASE);
  });

  it('spells flags as the official SDK does, in its order', () => {
    const args = buildCliArgs({
      maxTurns: 3,
      model: 'claude-x',
      canUseTool: () => Promise.resolve({ behavior: 'allow' }),
      resume: 'sess-1',
      allowedTools: ['Read', 'Bash(ls:*)'],
      disallowedTools: ['WebFetch'],
      tools: ['Read', 'Bash'],
      mcpServers: { remote: { type: 'http', url: 'http://127.0.0.1:1/mcp' } },
      mcpServersDelivery: 'argv',
      settingSources: [],
      permissionMode: 'default',
      fallbackModel: 'claude-y',
      includePartialMessages: true,
      additionalDirectories: ['/a', '/b'],
      forkSession: true,
      extraArgs: { flag: null, value: 'v', dashed: '-x' },
      executableArgs: ['--inspect'],
    });
    assert.deepEqual(args, [
      '--inspect',
      ...BASE,
      '--max-turns=3',
      '--model=claude-x',
      '--permission-prompt-tool=stdio',
      '--resume=sess-1',
      '--allowedTools=Read,Bash(ls:*)',
      '--disallowedTools=WebFetch',
      '--tools=Read,Bash',
      '--mcp-config',
      '{"mcpServers":{"remote":{"type":"http","url":"http://127.0.0.1:1/mcp"}}}',
      '--setting-sources=',
      '--permission-mode=default',
      '--fallback-model=claude-y',
      '--include-partial-messages',
      '--add-dir=/a',
      '--add-dir=/b',
      '--fork-session',
      '--flag',
      '--value',
      'v',
      '--dashed=-x',
    ]);
  });
});

describe('buildCliEnv', () => {
  it('replaces the environment with options.env and adds the protocol variables', () => {
    const env = buildCliEnv({ env: { PATH: '/bin', NODE_OPTIONS: '--inspect' } });
    assert.equal(env.PATH, '/bin');
    assert.equal(env.NODE_OPTIONS, undefined);
    assert.equal(env.HOME, undefined);
    assert.equal(env.CLAUDE_CODE_SDK_READS_SESSION_STATE, '1');
    assert.equal(env.CLAUDE_CODE_ENTRYPOINT, 'sdk-ts');
  });

  it('keeps a caller value for the session-state variable, in any case', () => {
    const env = buildCliEnv({ env: { PATH: '/bin', claude_code_sdk_reads_session_state: '0' } });
    assert.equal(env.CLAUDE_CODE_SDK_READS_SESSION_STATE, undefined);
  });
});

describe('validateOptions', () => {
  it('throws TypeError at once for options that cannot work', () => {
    assert.throws(() => validateOptions({ canUseTool: 'yes' as never }), TypeError);
    assert.throws(() => validateOptions({ model: 'a', fallbackModel: 'a' }), TypeError);
    assert.throws(() => validateOptions({ maxTurns: -1 }), TypeError);
    assert.throws(() => validateOptions({ allowedTools: 'Read' as never }), TypeError);
    assert.throws(
      () =>
        validateOptions({
          canUseTool: () => Promise.resolve({ behavior: 'allow' }),
          permissionPromptToolName: 'x',
        }),
      TypeError,
    );
    assert.doesNotThrow(() => validateOptions({ model: 'a', maxTurns: 2 }));
  });
});
