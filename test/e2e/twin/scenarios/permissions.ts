// canUseTool scenarios, written against the official SDK's API: allow, deny, deny with interrupt, and an
// interrupt while a permission request is pending (the person never answers).
import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { scenario, type MockModel } from '../../../../src/testing/index.js';
import { heldInput } from '../../helpers/sdk-session.js';
import { drain, type TwinScenario } from '../harness.js';

const COMMAND = 'touch made-by-bash.txt && echo created';

function bashScript() {
  return scenario()
    .on('perm')
    .callTool('Bash', { command: COMMAND, description: 'Create a file' })
    .thenAnswer((ctx) => `tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`)
    .build();
}

/** Resolves once the mock model has sent the whole reply that asks for the Bash call. */
export function replyEnded(mock: MockModel): Promise<unknown> {
  return mock.waitForRequest((r) => r.done && (r.reply ?? []).includes('tool_use:Bash'));
}

/** A canUseTool that records what it was asked, without the per-run ids, and answers with `answer`. */
export function recordingCanUseTool(
  calls: unknown[],
  answer: (input: Record<string, unknown>) => ReturnType<CanUseTool>,
): CanUseTool {
  return (toolName, input, context) => {
    const { signal, toolUseID, requestId, agentID, ...rest } = context;
    calls.push({
      toolName,
      input,
      signalIsAbortSignal: signal instanceof AbortSignal,
      toolUseID: /^toolu_/.test(toolUseID),
      requestId: typeof requestId,
      agentID: agentID === undefined ? undefined : 'a subagent',
      ...rest,
    });
    return answer(input);
  };
}

export const allow: TwinScenario = {
  name: 'allow',
  async run({ start, world }) {
    const options = await start(bashScript());
    const calls: unknown[] = [];
    const canUseTool = recordingCanUseTool(calls, (input) =>
      Promise.resolve({ behavior: 'allow', updatedInput: input }),
    );
    const observed = await drain(
      world.sdk.query({ prompt: '[[perm]] create a file', options: { ...options, canUseTool } }),
    );
    const created = existsSync(join(world.scratch.cwd, 'made-by-bash.txt'));
    return { ...observed, calls, facts: { created } };
  },
};

export const deny: TwinScenario = {
  name: 'deny',
  async run(env) {
    const { start, world } = env;
    const options = await start(bashScript());
    const calls: unknown[] = [];
    const canUseTool = recordingCanUseTool(calls, () =>
      Promise.resolve({ behavior: 'deny', message: 'Not in this repository, please.' }),
    );
    const observed = await drain(
      world.sdk.query({ prompt: '[[perm]] create a file', options: { ...options, canUseTool } }),
    );
    const followUp = env.mock.requests.find((r) => r.kind === 'main' && r.rounds === 1);
    return { ...observed, calls, facts: { modelSaw: followUp?.toolResults?.[0] } };
  },
};

export const denyWithInterrupt: TwinScenario = {
  name: 'deny with interrupt',
  async run(env) {
    const { start, world } = env;
    const options = await start(bashScript());
    const calls: unknown[] = [];
    const canUseTool = recordingCanUseTool(calls, () =>
      Promise.resolve({ behavior: 'deny', message: 'Stop right there.', interrupt: true }),
    );
    const observed = await drain(
      world.sdk.query({ prompt: '[[perm]] create a file', options: { ...options, canUseTool } }),
    );
    const askedAgain = env.mock.requests.some((r) => r.kind === 'main' && r.rounds === 1);
    return { ...observed, calls, facts: { askedAgain } };
  },
};

export const interruptWhilePending: TwinScenario = {
  name: 'interrupt while a permission is pending',
  async run(env) {
    const { start, world } = env;
    const script = scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch interrupted.txt', description: 'Create a file' })
      .thenAnswer((ctx) => (ctx.lastUserText.includes('[[next]]') ? 'Second turn answered.' : 'unexpected'))
      .build();
    const options = await start(script);
    const held = heldInput();
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => (asked = resolve));
    const calls: unknown[] = [];
    const canUseTool: CanUseTool = (toolName, _input, { signal }) => {
      asked();
      // A person who never answers: only the interrupt's abort ends the wait.
      return new Promise((resolve) =>
        signal.addEventListener(
          'abort',
          () => {
            calls.push({ toolName, aborted: signal.aborted });
            resolve({ behavior: 'deny', message: 'aborted' });
          },
          { once: true },
        ),
      );
    };
    const q = world.sdk.query({ prompt: held.input, options: { ...options, canUseTool } });
    held.send('[[ask]] make a file');
    let results = 0;
    const done = drain(q, (message) => {
      if (message.type !== 'result') return;
      results += 1;
      if (results === 1) held.send('[[next]] carry on');
      else held.end();
    });
    await askedPromise;
    // The CLI asks for a tool as soon as its block is complete, before the reply has ended; an interrupt
    // before the end is worded otherwise by the CLI ("interrupted by user", not "… for tool use"), on
    // either SDK: interrupt once the model's reply is over, so both meet the same moment.
    await replyEnded(env.mock);
    const reply = await q.interrupt();
    const observed = await done;
    return {
      ...observed,
      calls,
      facts: { interruptReply: reply === undefined ? 'none' : Object.keys(reply) },
    };
  },
};
