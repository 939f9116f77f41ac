// Twin suite, control methods: interrupt() with a permission prompt pending, then setPermissionMode()
// before the next turn — on both SDKs against the real CLI, compared message by message. Like every
// scenario, it is typechecked against Warden's types too (test/types/tsconfig.twin-warden.json).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { assertSameBehaviour } from './assert-twins.js';
import { createWorlds, disposeWorlds, runTwin, type World } from './harness.js';
import { interruptThenMode } from './scenarios/controls.js';

describe('twin: control methods', { timeout: 120_000 }, () => {
  let worlds: World[] = [];
  before(() => (worlds = createWorlds()));
  after(() => disposeWorlds(worlds));

  it('interrupt aborts the waiting callback; setPermissionMode resolves; the next turn is answered', async () => {
    const result = await runTwin(worlds, interruptThenMode);
    assertSameBehaviour(result);
    assert.deepEqual(result.warden.calls, [{ toolName: 'Bash' }, { aborted: true }]);
    assert.deepEqual(result.warden.facts, { modeSet: ['resolved'] });
    const results = result.warden.messages.filter((m) => m.type === 'result') as {
      subtype: string;
      result?: string;
    }[];
    assert.deepEqual(
      results.map((m) => m.subtype),
      ['error_during_execution', 'success'],
    );
    assert.equal(results[1]?.result, 'Second turn answered.');
  });
});
