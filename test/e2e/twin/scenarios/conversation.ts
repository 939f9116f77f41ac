// Scenarios written against the official SDK's API: a PreToolUse hook that blocks a tool, an in-process
// MCP tool, multi-turn streaming input, and resuming a session by id.
import type { HookCallback } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';

import { scenario } from '../../../../src/testing/index.js';
import { drain, type TwinScenario } from '../harness.js';
import { heldInput } from '../../helpers/sdk-session.js';

export const hookBlocksTool: TwinScenario = {
  name: 'hooks',
  async run(env) {
    const script = scenario()
      .on('hook')
      .callTool('Bash', { command: 'echo hello', description: 'Say hello' })
      .thenAnswer((ctx) => `blocked: ${ctx.toolResults[0]?.isError === true}`)
      .build();
    const options = await env.start(script);
    const calls: unknown[] = [];
    const guard: HookCallback = (input, toolUseID) => {
      const { session_id, transcript_path, cwd, ...rest } = input;
      calls.push({
        ...rest,
        tool_use_id: 'tool_use_id' in rest ? typeof rest.tool_use_id : undefined,
        toolUseID: typeof toolUseID,
        session_id: typeof session_id,
        transcript_path: transcript_path.endsWith(`${session_id}.jsonl`),
        cwd: cwd === env.world.scratch.cwd,
      });
      return Promise.resolve({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'Hooks say no shell today.',
        },
      });
    };
    const observed = await drain(
      env.sdk.query({
        prompt: '[[hook]] say hello',
        options: { ...options, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] } },
      }),
    );
    const followUp = env.mock.requests.find((r) => r.kind === 'main' && r.rounds === 1);
    return { ...observed, calls, facts: { modelSaw: followUp?.toolResults?.[0] } };
  },
};

export const mcpTool: TwinScenario = {
  name: 'in-process MCP tool',
  async run(env) {
    const script = scenario()
      .on('mcp')
      .callTool('mcp__calc__add', { a: 2, b: 3 })
      .thenAnswer((ctx) => `sum is ${ctx.toolResults[0]?.text ?? '?'}`)
      .build();
    const options = await env.start(script);
    const calls: unknown[] = [];
    const calc = env.sdk.createSdkMcpServer({
      name: 'calc',
      tools: [
        env.sdk.tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, (args) => {
          calls.push(args);
          return Promise.resolve({ content: [{ type: 'text', text: String(args.a + args.b) }] });
        }),
      ],
    });
    const q = env.sdk.query({
      prompt: '[[mcp]] add 2 and 3',
      options: { ...options, mcpServers: { calc }, allowedTools: ['mcp__calc__add'] },
    });
    const status = await q.mcpServerStatus();
    const observed = await drain(q);
    return { ...observed, calls, facts: { status: status.map((s) => [s.name, s.status]) } };
  },
};

export const multiTurn: TwinScenario = {
  name: 'multi-turn streaming input',
  async run(env) {
    const options = await env.start(
      scenario().on('one').thenAnswer('First.').on('two').thenAnswer('Second.').build(),
    );
    const held = heldInput();
    held.send('[[one]] hello');
    let results = 0;
    const observed = await drain(env.sdk.query({ prompt: held.input, options }), (message) => {
      if (message.type !== 'result') return;
      results += 1;
      if (results === 1) held.send('[[two]] again');
      else held.end();
    });
    return observed;
  },
};

export const resume: TwinScenario = {
  name: 'resume',
  async run(env) {
    const script = scenario()
      .on('first')
      .thenAnswer('Remembered.')
      .on('second')
      .thenAnswer((ctx) =>
        ctx.firstUserText.includes('remember 42') ? 'Resumed with history.' : 'No history.',
      )
      .build();
    const options = await env.start(script);
    const first = await drain(env.sdk.query({ prompt: '[[first]] remember 42', options }));
    const sessionId = first.messages.findLast((m) => m.type === 'result')?.session_id;
    if (sessionId === undefined) return first;
    const second = await drain(
      env.sdk.query({ prompt: '[[second]] what was it?', options: { ...options, resume: sessionId } }),
    );
    const resumedId = second.messages.findLast((m) => m.type === 'result')?.session_id;
    return {
      messages: [...first.messages, ...second.messages],
      error: first.error ?? second.error,
      facts: { sameSession: resumedId === sessionId },
    };
  },
};
