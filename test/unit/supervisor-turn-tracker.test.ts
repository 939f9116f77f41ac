// Which run a turn belongs to, from init/result frames alone: host turns by their uuid, CLI-started turns
// by the absence of one (and result.origin), queued messages, merged messages, empty CLI results.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { TurnTracker } from '../../src/supervisor/runtime/turn-tracker.js';

function tracker(): TurnTracker {
  let n = 0;
  return new TurnTracker(() => `cli-${++n}`);
}

describe('TurnTracker', () => {
  it('a host turn: init and result carry its uuid', () => {
    const turns = tracker();
    assert.equal(turns.hostSent('r1', 'u1'), 'running');
    assert.deepEqual(turns.onInit(['u1']), { startedHostRuns: [] });
    assert.equal(turns.currentRunId, 'r1');
    assert.deepEqual(turns.onResult(['u1'], 'human'), { ended: [{ runId: 'r1', created: false }] });
    assert.equal(turns.currentRunId, undefined);
    assert.equal(turns.lastRunId, 'r1');
  });

  it('a message sent during a turn is queued and starts with its own init', () => {
    const turns = tracker();
    turns.hostSent('r1', 'u1');
    turns.onInit(['u1']);
    assert.equal(turns.hostSent('r2', 'u2'), 'queued');
    turns.onResult(['u1'], undefined);
    assert.deepEqual(turns.onInit(['u2']), { startedHostRuns: ['r2'] });
    assert.deepEqual(turns.onResult(['u2'], 'human').ended, [{ runId: 'r2', created: false }]);
  });

  it('a CLI-started turn becomes a new run; an empty result with no init too', () => {
    const turns = tracker();
    assert.deepEqual(turns.onInit([]), { startedHostRuns: [], cliRunId: 'cli-1' });
    turns.noteToolUses('cli-1', ['toolu_agent']);
    assert.equal(turns.ownerOfToolUse('toolu_agent'), 'cli-1');
    assert.deepEqual(turns.onResult([], 'task-notification').ended, [{ runId: 'cli-1', created: false }]);
    assert.deepEqual(turns.onResult([], 'task-notification').ended, [{ runId: 'cli-2', created: true }]);
  });

  it('merged messages end together; a CLI result never ends a waiting host run', () => {
    const turns = tracker();
    turns.hostSent('r1', 'u1');
    turns.hostSent('r2', 'u2');
    turns.onInit(['u1', 'u2']);
    assert.deepEqual(
      turns.onResult(['u1', 'u2'], 'human').ended.map((e) => e.runId),
      ['r1', 'r2'],
    );
    turns.hostSent('r3', 'u3');
    assert.deepEqual(turns.onResult([], 'task-notification').ended, [{ runId: 'cli-1', created: true }]);
    assert.equal(turns.busy, true, 'r3 still awaits its result');
    assert.deepEqual(
      turns.onResult([], undefined).ended,
      [{ runId: 'r3', created: false }],
      'an older CLI without uuids',
    );
  });
});
