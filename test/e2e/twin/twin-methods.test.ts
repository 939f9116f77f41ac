// Twin suite, Query methods: reinitialize with a pending permission prompt, rewindFiles, getContextUsage
// and setMcpServers — each on both SDKs against the real CLI, compared message by message.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';

import { assertSameBehaviour } from './assert-twins.js';
import { createWorlds, disposeWorlds, runTwin, type World } from './harness.js';
import {
  contextUsage,
  reinitializeInFlight,
  reinitializeRedelivers,
  rewindFiles,
  setMcpServers,
} from './scenarios/methods.js';

function lastResultText(messages: readonly SDKMessage[]): string | undefined {
  return (messages.findLast((m) => m.type === 'result') as { result?: string } | undefined)?.result;
}

describe('twin: Query methods', { timeout: 300_000 }, () => {
  let worlds: World[] = [];
  before(() => (worlds = createWorlds()));
  after(() => disposeWorlds(worlds));

  it('reinitialize: the pending permission request is handed to canUseTool again', async () => {
    const result = await runTwin(worlds, reinitializeRedelivers);
    assertSameBehaviour(result);
    assert.equal(result.warden.calls?.length, 2);
    assert.equal(result.warden.facts?.sameRequestId, true);
    assert.equal(lastResultText(result.warden.messages), 'Read it.');
    // Where the CLI puts the requests it still waits on: beside `response`, not inside it.
    assert.deepEqual(result.warden.facts?.secondAnswerPending, { envelope: 1, payload: 'absent' });
  });

  it('reinitialize while canUseTool is still deciding: asked once', async () => {
    const result = await runTwin(worlds, reinitializeInFlight);
    assertSameBehaviour(result);
    assert.equal(result.warden.calls?.length, 1);
    assert.equal(lastResultText(result.warden.messages), 'Read it.');
  });

  it('rewindFiles: the same answers, the files back as they were before the prompt', async () => {
    const result = await runTwin(worlds, rewindFiles);
    assertSameBehaviour(result);
    const facts = result.warden.facts ?? {};
    assert.deepEqual(facts.afterTurn, { notes: 'changed\n', created: true });
    assert.equal((facts.preview as { canRewind?: unknown }).canRewind, true);
    assert.equal((facts.rewound as { canRewind?: unknown }).canRewind, true);
    assert.deepEqual(facts.afterRewind, { notes: 'original\n', created: false });
  });

  it('getContextUsage: the same keys and value types', async () => {
    const result = await runTwin(worlds, contextUsage);
    assertSameBehaviour(result);
    const summary = result.warden.facts?.summary as Record<string, unknown>;
    assert.equal(summary.totalTokens, 'number');
    assert.equal(summary.model, 'string');
  });

  it('setMcpServers: both servers added, their tools callable in the next turn, then removed', async () => {
    const result = await runTwin(worlds, setMcpServers);
    assertSameBehaviour(result);
    assert.deepEqual(result.warden.facts?.added, {
      added: ['inproc', 'resources'],
      removed: [],
      errors: {},
    });
    assert.deepEqual(result.warden.calls, [{ text: 'hello' }]);
    assert.equal(lastResultText(result.warden.messages), 'tools said: echo: hello');
  });

  it('Warden reported no warnings', () => {
    assert.deepEqual(worlds.find((w) => w.name === 'warden')?.warnings, []);
  });
});
