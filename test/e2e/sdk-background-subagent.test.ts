// The problem Warden exists to solve: the root turn launches a background subagent and ends with a
// `result`; only after that result has been delivered does the subagent make two tool calls that need
// permission, a second apart. Both must reach canUseTool (with the subagent's agentID) and succeed, and
// the query must end by itself once the subagent is done — whatever the prompt's form, and also when
// the CLI sends no session-state frames at all.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';

import { query, type CanUseTool, type Prompt, type SDKMessage } from '../../src/index.js';
import {
  BACKGROUND_AGENT_PROMPT,
  backgroundSubagentScenario,
  writeCliWithoutStateEvents,
} from '../../src/testing/index.js';
import { assertNoProcessLeft, collect, heldInput, signal, startSdkSession } from './helpers/sdk-session.js';

type Variant = 'string' | 'iterable that returns at once' | 'iterable held open' | 'CLI without state events';

async function runVariant(t: TestContext, variant: Variant): Promise<void> {
  const rootResult = signal();
  const session = await startSdkSession(
    t,
    backgroundSubagentScenario({ askAfter: rootResult.promise, secondAskDelayMs: 1000 }),
  );
  const asks: { toolName: string; agentID: string | undefined; afterRootResult: boolean }[] = [];
  const canUseTool: CanUseTool = (toolName, input, { agentID }) => {
    asks.push({ toolName, agentID, afterRootResult: rootResult.fired });
    return Promise.resolve({ behavior: 'allow', updatedInput: input });
  };
  const text = BACKGROUND_AGENT_PROMPT;
  const held = heldInput();
  let prompt: Prompt = text;
  if (variant === 'iterable that returns at once' || variant === 'iterable held open') {
    held.send(text);
    if (variant === 'iterable that returns at once') held.end();
    prompt = held.input;
  }
  const options = { ...session.options, canUseTool };
  if (variant === 'CLI without state events')
    options.pathToClaudeCodeExecutable = writeCliWithoutStateEvents(session.scratch.dir);

  const results: SDKMessage[] = [];
  const messages = await collect(query({ prompt, options }), (message) => {
    if (message.type !== 'result') return;
    results.push(message);
    if (results.length === 1) rootResult.fire();
    // The held variant ends its input once the CLI-started turn has reported.
    if (results.length === 2) held.end();
  });

  const started = messages.find((m) => m.type === 'system' && m.subtype === 'task_started') as
    Record<string, unknown> | undefined;
  assert.ok(started !== undefined, 'the subagent started');
  assert.deepEqual(asks, [
    { toolName: 'Read', agentID: started.task_id, afterRootResult: true },
    { toolName: 'Bash', agentID: started.task_id, afterRootResult: true },
  ]);
  const subagentResults = session.mock.requests
    .filter((r) => r.kind === 'subagent' && (r.toolResults?.length ?? 0) > 0)
    .map((r) => r.toolResults![0]!);
  assert.equal(subagentResults.length, 2);
  for (const toolResult of subagentResults) assert.equal(toolResult.isError, false, toolResult.text);
  const notification = messages.find((m) => m.type === 'system' && m.subtype === 'task_notification') as
    Record<string, unknown> | undefined;
  assert.equal(notification?.status, 'completed');
  assert.equal(results.length, 2, 'the root turn and the turn the CLI started to report the subagent');
  assert.equal(
    messages.some((m) => m.type === 'system' && m.subtype === 'session_state_changed'),
    false,
    'state frames meant for the host are not yielded',
  );
  assert.deepEqual(session.warnings, []);
  assertNoProcessLeft(session);
}

describe('a background subagent asks for permission after the root result', { timeout: 120_000 }, () => {
  for (const variant of [
    'string',
    'iterable that returns at once',
    'iterable held open',
    'CLI without state events',
  ] as const) {
    it(`prompt: ${variant}`, (t) => runVariant(t, variant));
  }
});
