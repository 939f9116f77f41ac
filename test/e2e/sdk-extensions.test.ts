// query() against the real CLI: a hook that blocks a tool, an in-process MCP tool the model calls, and
// resuming a session by id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';

import { createSdkMcpServer, query, tool, type HookInput } from '../../src/index.js';
import { scenario } from '../../src/testing/index.js';
import { assertNoProcessLeft, collect, startSdkSession } from './helpers/sdk-session.js';

describe('query() hooks, MCP tools and resume against the real CLI', { timeout: 120_000 }, () => {
  it('a PreToolUse hook blocks a tool; the model sees the reason', async (t) => {
    const script = scenario()
      .on('hook')
      .callTool('Bash', { command: 'echo hello', description: 'Say hello' })
      .thenAnswer((ctx) => `blocked: ${ctx.toolResults[0]?.isError === true}`)
      .build();
    const session = await startSdkSession(t, script);
    const seen: HookInput[] = [];
    const messages = await collect(
      query({
        prompt: '[[hook]] say hello',
        options: {
          ...session.options,
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [
                  (input) => {
                    seen.push(input);
                    return Promise.resolve({
                      hookSpecificOutput: {
                        hookEventName: 'PreToolUse',
                        permissionDecision: 'deny',
                        permissionDecisionReason: 'Hooks say no shell today.',
                      },
                    });
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.hook_event_name, 'PreToolUse');
    assert.deepEqual(seen[0]?.tool_input, { command: 'echo hello', description: 'Say hello' });
    const followUp = session.mock.requests.find((r) => r.kind === 'main' && r.rounds === 1);
    assert.equal(followUp?.toolResults?.[0]?.isError, true);
    assert.match(followUp?.toolResults?.[0]?.text ?? '', /Hooks say no shell today\./);
    assert.equal(
      (messages.findLast((m) => m.type === 'result') as Record<string, unknown>).result,
      'blocked: true',
    );
    assertNoProcessLeft(session);
  });

  it('the model calls an in-process MCP tool', async (t) => {
    const script = scenario()
      .on('mcp')
      .callTool('mcp__calc__add', { a: 2, b: 3 })
      .thenAnswer((ctx) => `sum is ${ctx.toolResults[0]?.text ?? '?'}`)
      .build();
    const session = await startSdkSession(t, script);
    const calls: { a: number; b: number }[] = [];
    const calc = createSdkMcpServer({
      name: 'calc',
      tools: [
        tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, (args) => {
          calls.push(args);
          return Promise.resolve({ content: [{ type: 'text', text: String(args.a + args.b) }] });
        }),
      ],
    });
    const messages = await collect(
      query({
        prompt: '[[mcp]] add 2 and 3',
        options: { ...session.options, mcpServers: { calc }, allowedTools: ['mcp__calc__add'] },
      }),
    );
    assert.deepEqual(calls, [{ a: 2, b: 3 }]);
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as Record<string, unknown>;
    assert.ok((init.tools as string[]).includes('mcp__calc__add'));
    assert.equal(
      (messages.findLast((m) => m.type === 'result') as Record<string, unknown>).result,
      'sum is 5',
    );
    assertNoProcessLeft(session);
  });

  it('resume continues a session by id with its history', async (t) => {
    const script = scenario()
      .on('first')
      .thenAnswer('Remembered.')
      .on('second')
      .thenAnswer((ctx) =>
        ctx.firstUserText.includes('remember 42') ? 'Resumed with history.' : 'No history.',
      )
      .build();
    const session = await startSdkSession(t, script);
    const first = await collect(query({ prompt: '[[first]] remember 42', options: session.options }));
    const sessionId = (first.findLast((m) => m.type === 'result') as Record<string, unknown>).session_id;
    assert.equal(typeof sessionId, 'string');
    const second = await collect(
      query({
        prompt: '[[second]] what was it?',
        options: { ...session.options, resume: sessionId as string },
      }),
    );
    const result = second.findLast((m) => m.type === 'result') as Record<string, unknown>;
    assert.equal(result.result, 'Resumed with history.', 'the model saw the earlier history');
    assert.equal(result.session_id, sessionId);
    assertNoProcessLeft(session);
  });
});
