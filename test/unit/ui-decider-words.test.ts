// The thread view names who decided a call: the timeline fold keeps the decision's `decidedBy`, and the
// badge reads "by you" for the server's owner, the decider's name otherwise, and says so when the answer
// came from a terminal or the API rather than the web UI.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { buildTimeline, decidedByWords } from '../../src/view/timeline.js';

const words = decidedByWords;

describe('who decided, in the thread view', () => {
  it('reads the decider and the channel', () => {
    assert.equal(words({ decider: 'owner', channel: 'web' }), ' by you');
    assert.equal(words({ decider: null, channel: null }), ' by you', 'decisions from before names');
    assert.equal(words({ decider: 'alice', channel: 'web' }), ' by alice');
    assert.equal(words({ decider: 'bob', channel: 'terminal' }), ' by bob in a terminal');
    assert.equal(words({ decider: 'ci', channel: 'api' }), ' by ci over the API');
  });

  it('the fold keeps decidedBy from approval.decided', () => {
    const at = '2026-12-01T00:00:00.000Z';
    const events = [
      {
        seq: 1,
        threadId: 't',
        threadSeq: 1,
        at,
        type: 'run.created',
        data: { runId: 'r', trigger: 'human', status: 'running' },
      },
      {
        seq: 2,
        threadId: 't',
        threadSeq: 2,
        at,
        type: 'approval.requested',
        data: { approvalId: 'a', runId: 'r', subagentId: null, toolName: 'Read', input: {}, toolUseId: 'u' },
      },
      {
        seq: 3,
        threadId: 't',
        threadSeq: 3,
        at,
        type: 'approval.decided',
        data: {
          approvalId: 'a',
          behavior: 'allow',
          by: 'user',
          decidedBy: { name: 'alice', via: 'terminal' },
        },
      },
    ];
    const items = (
      buildTimeline as (e: unknown[]) => { kind: string; permission?: Record<string, unknown> }[]
    )(events);
    const call = items.find((item) => item.kind === 'tool_call');
    assert.deepEqual([call?.permission?.decider, call?.permission?.channel], ['alice', 'terminal']);
  });
});
