// Every Query control method against the fake CLI: the control request it writes (subtype and fields,
// as the official SDK writes them), how it reads the answer, and reinitialize() handing the requests the
// CLI re-delivers to canUseTool with the context the CLI gave.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';

import { ControlRequestError, query, type Query, type SDKUserMessage } from '../../src/index.js';
import { fakeRun, type Frame } from './helpers/sdk-fake.js';

const ANSWERS = {
  set_permission_mode: { mode: 'manual' },
  get_context_usage: { totalTokens: 1234, maxTokens: 200000, categories: [] },
  get_usage: { subscription_type: null, rate_limits_available: false, rate_limits: null },
  read_file: { contents: 'hello', absPath: '/x/a.txt' },
  reload_plugins: { commands: [], agents: [], plugins: [], mcpServers: [], error_count: 0 },
  reload_skills: { skills: [{ name: 'review', description: 'Reviews', argumentHint: '' }] },
  reload_output_styles: { available_output_styles: ['default', 'Explanatory'] },
  rewind_files: { canRewind: true, filesChanged: ['a.txt'], insertions: 1, deletions: 2 },
  mcp_read_resource: { contents: [{ uri: 'ui://w/x', text: '<p>x</p>' }] },
  mcp_set_servers: { added: ['remote'], removed: [], errors: {} },
  set_mcp_permission_mode_override: { warning: 'no server named typo' },
  background_tasks: { backgrounded: false },
  mcp_toggle: { __error: 'No MCP server named nope' },
};

/** A prompt that stays open (so is stdin) until the test ends. */
function openPrompt(t: TestContext): AsyncIterable<SDKUserMessage> {
  let release!: () => void;
  const ended = new Promise<void>((resolve) => (release = resolve));
  t.after(() => release());
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => ended.then(() => ({ done: true as const, value: undefined })),
    }),
  };
}

/** The requests the fake echoed back, in order, read off the message stream as they come. */
function echoes(q: Query): { next(): Promise<Frame> } {
  const iterator = q[Symbol.asyncIterator]();
  return {
    async next() {
      for (;;) {
        const { value, done } = await iterator.next();
        assert.ok(!done, 'the stream ended before the fake echoed the request');
        const frame = value as Frame;
        if (frame.type === 'system' && frame.subtype === 'fake_cli_control') return frame;
      }
    },
  };
}

describe('Query control methods against a scripted CLI', { timeout: 60_000 }, () => {
  it('write the official wire payloads and read the answers', async (t) => {
    const run = fakeRun(t, 'control-answers', { FAKE_CLI_ANSWERS: JSON.stringify(ANSWERS) });
    const q = query({ prompt: openPrompt(t), options: run.options });
    t.after(() => q.close());
    const seen = echoes(q);
    const sent = async <T>(call: Promise<T>): Promise<{ answer: T; request: Frame }> => {
      const answer = await call;
      return { answer, request: (await seen.next()).request as Frame };
    };

    let r: { answer: unknown; request: Frame } = await sent(q.setPermissionMode('default'));
    assert.deepEqual(r.answer, { mode: 'default' }, "the CLI's 'manual' is 'default'");
    assert.deepEqual(r.request, { subtype: 'set_permission_mode', mode: 'default' });

    r = await sent(q.setMaxThinkingTokens(null, 'omitted'));
    assert.deepEqual(r.request, {
      subtype: 'set_max_thinking_tokens',
      max_thinking_tokens: null,
      thinking_display: 'omitted',
    });
    r = await sent(q.applyFlagSettings({ model: null, permissions: { deny: ['Bash(rm:*)'] } }));
    assert.deepEqual(r.request, {
      subtype: 'apply_flag_settings',
      settings: { model: null, permissions: { deny: ['Bash(rm:*)'] } },
    });
    r = await sent(q.updateSettings('localSettings', { outputStyle: 'Explanatory' }));
    assert.deepEqual(r.request, {
      subtype: 'update_settings',
      source: 'localSettings',
      settings: { outputStyle: 'Explanatory' },
    });

    const usage = await sent(q.getContextUsage({ detail: 'summary' }));
    assert.equal(usage.answer.totalTokens, 1234);
    assert.deepEqual(usage.request, { subtype: 'get_context_usage', detail: 'summary' });
    const plan = await sent(
      q.usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET({ skipBehaviors: true }),
    );
    assert.equal(plan.answer.rate_limits_available, false);
    assert.deepEqual(plan.request, { subtype: 'get_usage', skip_behaviors: true });

    const file = await sent(q.readFile('a.txt', { maxBytes: 10, encoding: 'base64' }));
    assert.deepEqual(file.answer, { contents: 'hello', absPath: '/x/a.txt' });
    assert.deepEqual(file.request, {
      subtype: 'read_file',
      path: 'a.txt',
      max_bytes: 10,
      encoding: 'base64',
    });

    const plugins = await sent(
      q.reloadPlugins({ holdOnCacheImpact: true, addPlugins: [], refuseIfBusy: true }),
    );
    assert.equal(plugins.answer.error_count, 0);
    assert.deepEqual(plugins.request, {
      subtype: 'reload_plugins',
      hold_on_cache_impact: true,
      refuse_if_busy: true,
    });
    const skills = await sent(q.reloadSkills());
    assert.equal(skills.answer.skills[0]?.name, 'review');
    assert.deepEqual(skills.request, { subtype: 'reload_skills' });
    const styles = await sent(q.reloadOutputStyles());
    assert.deepEqual(styles.answer.available_output_styles, ['default', 'Explanatory']);

    const rewind = await sent(q.rewindFiles('0b0e5f2c-0000-4000-8000-000000000001', { dryRun: true }));
    assert.deepEqual(rewind.answer, {
      canRewind: true,
      filesChanged: ['a.txt'],
      insertions: 1,
      deletions: 2,
    });
    assert.deepEqual(rewind.request, {
      subtype: 'rewind_files',
      user_message_id: '0b0e5f2c-0000-4000-8000-000000000001',
      dry_run: true,
    });
    r = await sent(q.seedReadState('/x/a.txt', 1_700_000_000_000));
    assert.deepEqual(r.request, { subtype: 'seed_read_state', path: '/x/a.txt', mtime: 1_700_000_000_000 });

    r = await sent(q.reconnectMcpServer('remote'));
    assert.deepEqual(r.request, { subtype: 'mcp_reconnect', serverName: 'remote' });
    const resource = await sent(q.readMcpResource('remote', 'ui://w/x'));
    assert.equal(resource.answer.contents[0]?.text, '<p>x</p>');
    assert.deepEqual(resource.request, {
      subtype: 'mcp_read_resource',
      serverName: 'remote',
      uri: 'ui://w/x',
    });
    const servers = await sent(q.setMcpServers({ remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' } }));
    assert.deepEqual(servers.answer, { added: ['remote'], removed: [], errors: {} });
    assert.deepEqual(servers.request, {
      subtype: 'mcp_set_servers',
      servers: { remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' } },
    });
    const override = await sent(q.setMcpPermissionModeOverride('typo', null));
    assert.deepEqual(override.answer, { warning: 'no server named typo' });
    assert.deepEqual(override.request, {
      subtype: 'set_mcp_permission_mode_override',
      serverName: 'typo',
      mode: null,
    });
    const background = await sent(q.backgroundTasks('toolu_1'));
    assert.equal(background.answer, false);
    assert.deepEqual(background.request, { subtype: 'background_tasks', tool_use_id: 'toolu_1' });

    // An error reply rejects with the CLI's text.
    await assert.rejects(q.toggleMcpServer('nope', false), (error: unknown) => {
      assert.ok(error instanceof ControlRequestError);
      assert.match(error.message, /No MCP server named nope/);
      return true;
    });
    assert.deepEqual((await seen.next()).request, {
      subtype: 'mcp_toggle',
      serverName: 'nope',
      enabled: false,
    });

    assert.deepEqual(await q.supportedAgents(), [{ name: 'Explore', description: 'Looks around' }]);
    assert.deepEqual(run.warnings, []);
  });

  it('readFile resolves null when the CLI refuses', async (t) => {
    const run = fakeRun(t, 'control-answers', {
      FAKE_CLI_ANSWERS: JSON.stringify({ read_file: { __error: 'denied' } }),
    });
    const q = query({ prompt: openPrompt(t), options: run.options });
    t.after(() => q.close());
    assert.equal(await q.readFile('/etc/shadow'), null);
  });

  it('reinitialize hands a re-delivered permission request to canUseTool, with its context', async (t) => {
    const run = fakeRun(t, 'control-answers');
    const contexts: Frame[] = [];
    const q = query({
      prompt: openPrompt(t),
      options: {
        ...run.options,
        canUseTool: (toolName, input, context) => {
          const { signal: _signal, ...rest } = context;
          contexts.push({ toolName, input, ...rest });
          return Promise.resolve({ behavior: 'deny', message: 'not now' });
        },
      },
    });
    t.after(() => q.close());
    const seen = echoes(q);
    const first = await q.initializationResult();
    const again = await q.reinitialize();
    assert.deepEqual(again.agents, first.agents);
    const { reply } = (await seen.next()) as { reply: Frame };
    assert.equal(reply.request_id, 'perm-pending');
    assert.equal(reply.response.behavior, 'deny');
    assert.equal(reply.response.toolUseID, 'toolu_pending');
    assert.deepEqual(contexts, [
      {
        toolName: 'Bash',
        input: { command: 'touch pending.txt' },
        toolUseID: 'toolu_pending',
        requestId: 'perm-pending',
        defaultToNo: true,
        suppressAlwaysAllowRule: true,
        matchedAskRule: { source: 'localSettings', toolName: 'Bash', ruleContent: 'touch:*' },
      },
    ]);
    assert.deepEqual(run.warnings, []);
  });

  it('a canUseTool that answers null leaves the request unanswered, and nothing is left in flight', async (t) => {
    const run = fakeRun(t, 'control-answers');
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    const q = query({
      prompt: openPrompt(t),
      options: {
        ...run.options,
        canUseTool: () => {
          asked();
          return Promise.resolve(null);
        },
      },
    });
    await q.reinitialize();
    await wasAsked;
    // A later request is answered: the null left the channel working, and wrote nothing for perm-pending.
    await q.seedReadState('/x', 1);
    q.close();
    await q.closed;
    const replies = run
      .report()
      .received.map(({ frame }) => frame)
      .filter((frame) => frame.type === 'control_response');
    assert.deepEqual(replies, []);
    assert.deepEqual(run.warnings, []);
  });
});
