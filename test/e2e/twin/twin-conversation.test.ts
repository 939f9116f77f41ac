// Twin suite, conversations: hooks, an in-process MCP tool, multi-turn input and resume on both SDKs,
// then the session functions on the transcripts those runs left, and fork / rename / tag / delete.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { NotFoundError } from '../../../src/index.js';
import { assertSameBehaviour } from './assert-twins.js';
import { createWorlds, disposeWorlds, runTwin, type World } from './harness.js';
import { hookBlocksTool, mcpTool, multiTurn, resume } from './scenarios/conversation.js';
import { forkResumeAndMutate } from './scenarios/session-lifecycle.js';
import { assertSessionFunctionsAgree, inWorld } from './session-checks.js';
import { WARDEN } from './sdks.js';

describe('twin: conversations and sessions', { timeout: 180_000 }, () => {
  let worlds: World[] = [];
  before(() => (worlds = createWorlds()));
  after(() => disposeWorlds(worlds));

  it('hooks: the same hook input, the tool blocked on both', async () => {
    const result = await runTwin(worlds, hookBlocksTool);
    assertSameBehaviour(result);
    assert.equal(result.warden.calls?.length, 1);
    assert.match(JSON.stringify(result.warden.facts?.modelSaw), /Hooks say no shell today\./);
  });

  it('an in-process MCP tool is called with the same arguments', async () => {
    const result = await runTwin(worlds, mcpTool);
    assertSameBehaviour(result);
    assert.deepEqual(result.warden.calls, [{ a: 2, b: 3 }]);
  });

  it('multi-turn streaming input: a turn per message, then the query ends', async () => {
    const result = await runTwin(worlds, multiTurn);
    assertSameBehaviour(result);
    assert.equal(result.warden.messages.filter((m) => m.type === 'result').length, 2);
  });

  it('resume: the resumed session has its history', async () => {
    const result = await runTwin(worlds, resume);
    assertSameBehaviour(result);
    assert.equal(result.warden.facts?.sameSession, true);
  });

  it('listSessions / getSessionInfo / getSessionMessages agree on the transcripts these runs left', async () => {
    await assertSessionFunctionsAgree(worlds);
  });

  it('fork, resume the fork with the CLI, rename, tag, delete: the same on both', async () => {
    const result = await runTwin(worlds, forkResumeAndMutate);
    assertSameBehaviour(result);
    const facts = result.warden.facts!;
    assert.equal(facts.resumedTheFork, true);
    assert.equal(
      (result.warden.messages.findLast((m) => m.type === 'result') as { result?: string }).result,
      'Fork resumed with history.',
    );
    assert.deepEqual(facts.afterDelete, { listed: false, info: 'undefined', messages: 0 });
  });

  it('a fork made by each SDK reads the same through both SDKs', async () => {
    for (const world of worlds)
      await inWorld(world, async () => {
        const [source] = await world.sdk.listSessions({ dir: world.scratch.cwd, limit: 1 });
        assert.ok(source !== undefined);
        await world.sdk.forkSession(source.sessionId, { title: 'A kept fork' });
      });
    await assertSessionFunctionsAgree(worlds);
  });

  it('a missing session: the official text, and a NotFoundError (code NOT_FOUND) from Warden', async () => {
    const world = worlds.find((w) => w.name === 'warden')!;
    await inWorld(world, () =>
      assert.rejects(WARDEN.renameSession('00000000-0000-4000-8000-000000000000', 'x'), (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.equal(error.code, 'NOT_FOUND');
        assert.equal(
          error.message,
          'Session 00000000-0000-4000-8000-000000000000 not found in any project directory',
        );
        return true;
      }),
    );
  });

  it('Warden reported no warnings', () => {
    assert.deepEqual(worlds.find((w) => w.name === 'warden')?.warnings, []);
  });
});
