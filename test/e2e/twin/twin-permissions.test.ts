// Twin suite, permissions: the same scenarios on the official SDK and on Warden, against the real CLI.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { assertSameBehaviour, expectErrorTwins } from './assert-twins.js';
import { createWorlds, disposeWorlds, runTwin, type World } from './harness.js';
import { allow, deny, denyWithInterrupt, interruptWhilePending } from './scenarios/permissions.js';
import { assertSessionFunctionsAgree } from './session-checks.js';

describe('twin: permissions', { timeout: 180_000 }, () => {
  let worlds: World[] = [];
  before(() => (worlds = createWorlds()));
  after(() => disposeWorlds(worlds));

  it('allow: same messages, same canUseTool call, the tool ran', async () => {
    const result = await runTwin(worlds, allow);
    assertSameBehaviour(result);
    assert.equal(result.warden.facts?.created, true);
    assert.equal(result.warden.calls?.length, 1);
  });

  it('deny: the model sees the message on both', async () => {
    const result = await runTwin(worlds, deny);
    assertSameBehaviour(result);
    assert.match(JSON.stringify(result.warden.facts?.modelSaw), /Not in this repository, please\./);
  });

  it('deny with interrupt: same messages; the error has the official text and our class', async () => {
    const result = await runTwin(worlds, denyWithInterrupt);
    assertSameBehaviour(result);
    assert.equal(result.warden.facts?.askedAgain, false);
    expectErrorTwins(result, { code: 'ERROR_RESULT', text: /^Claude Code returned an error result: / });
  });

  it('interrupt while a permission is pending: the callback is aborted, the session goes on', async () => {
    const result = await runTwin(worlds, interruptWhilePending);
    assertSameBehaviour(result);
    assert.deepEqual(result.warden.calls, [{ toolName: 'Bash', aborted: true }]);
  });

  it('listSessions / getSessionMessages agree on the transcripts these runs left', async () => {
    await assertSessionFunctionsAgree(worlds);
  });

  it('Warden reported no warnings', () => {
    assert.deepEqual(worlds.find((w) => w.name === 'warden')?.warnings, []);
  });
});
