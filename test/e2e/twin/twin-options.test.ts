// Twin suite, options: structured output, thinking and effort, a session store round trip with a resume
// from the store, and spawnClaudeCodeProcess — each on both SDKs against the real CLI, compared.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { assertSameBehaviour } from './assert-twins.js';
import { createWorlds, disposeWorlds, runTwin, type World } from './harness.js';
import { ownSpawner, sessionStoreResume, structuredOutput, thinkingAndEffort } from './scenarios/options.js';

describe('twin: options', { timeout: 180_000 }, () => {
  let worlds: World[] = [];
  before(() => (worlds = createWorlds()));
  after(() => disposeWorlds(worlds));

  it('outputFormat: the result carries the same structured_output', async () => {
    const result = await runTwin(worlds, structuredOutput);
    assertSameBehaviour(result);
    assert.deepEqual(result.warden.facts?.structured, { answer: 'forty-two', confidence: 3 });
  });

  it('thinking and effort reach the model request the same way', async () => {
    const result = await runTwin(worlds, thinkingAndEffort);
    assertSameBehaviour(result);
    assert.match(String(result.warden.facts?.modelSaw), /"effort":"high"/);
  });

  it('sessionStore: the transcript is mirrored, and a resume comes back from the store', async () => {
    const result = await runTwin(worlds, sessionStoreResume);
    assertSameBehaviour(result);
    assert.equal(result.warden.facts?.storedSomething, true);
    assert.equal(result.warden.facts?.sameSession, true);
    assert.equal(
      (result.warden.messages.findLast((m) => m.type === 'result') as { result?: string }).result,
      'Resumed with history.',
    );
  });

  it('spawnClaudeCodeProcess: the application starts the CLI, the conversation is the same', async () => {
    const result = await runTwin(worlds, ownSpawner);
    assertSameBehaviour(result);
    assert.equal(result.warden.facts?.spawned, 1);
  });
});
