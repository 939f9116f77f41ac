// Twin suite, background subagents: a subagent asks for permission after the root result. With a CLI that
// reports its session state both SDKs answer it; with one that does not, only Warden does (its channel
// stays open on what it sees in the stream) — the one deliberate difference in behaviour, asserted here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { assertSameBehaviour } from './assert-twins.js';
import { createWorlds, disposeWorlds, runTwin, type World } from './harness.js';
import { normaliseMessages } from './normalise.js';
import {
  subagentDefault,
  subagentWithoutStateEvents,
  subagentWithStateEvents,
} from './scenarios/subagent.js';
import { assertSessionFunctionsAgree } from './session-checks.js';

const BOTH_ASKED = [
  { toolName: 'Read', fromSubagent: true, afterRootResult: true },
  { toolName: 'Bash', fromSubagent: true, afterRootResult: true },
];

describe('twin: a background subagent asks after the root result', { timeout: 180_000 }, () => {
  let worlds: World[] = [];
  before(() => (worlds = createWorlds()));
  after(() => disposeWorlds(worlds));

  it('both SDKs answer both requests and end by themselves', async () => {
    const result = await runTwin(worlds, subagentDefault);
    assertSameBehaviour(result);
    assert.deepEqual(result.warden.calls, BOTH_ASKED);
    assert.equal(result.warden.messages.filter((m) => m.type === 'result').length, 2);
  });

  it('CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=1: state messages reach the application; the lifecycle holds', async () => {
    const result = await runTwin(worlds, subagentWithStateEvents);
    assertSameBehaviour(result);
    assert.deepEqual(result.warden.calls, BOTH_ASKED, 'the channel stayed open for the subagent');
    const states = result.warden.messages.flatMap((m) =>
      m.type === 'system' && m.subtype === 'session_state_changed' ? [m.state] : [],
    );
    assert.deepEqual(states, ['running', 'requires_action', 'running', 'requires_action', 'running', 'idle']);
    assert.deepEqual(
      result.warden.messages.at(-1),
      result.warden.messages.findLast((m) => m.type === 'system'),
    );
  });

  // Before the run below, whose transcripts differ by design (the official run's subagent was refused).
  it('listSessions / getSessionMessages agree on the transcripts these runs left', async () => {
    await assertSessionFunctionsAgree(worlds);
  });

  it('a CLI without state events: the official SDK closes the channel under the subagent; Warden does not', async () => {
    const result = await runTwin(worlds, subagentWithoutStateEvents);
    // Deliberately better: Warden keeps stdin open while a background task can still ask.
    assert.deepEqual(result.warden.calls, BOTH_ASKED);
    assert.deepEqual(result.warden.facts?.subagentToolResults, [{ isError: false }, { isError: false }]);
    // The official SDK closed stdin at the first result: the subagent's requests fail inside the CLI
    // ("Stream closed"). Whether the first one still reached canUseTool (its answer then lost) is a race
    // in the CLI, so only the outcome is asserted: not both calls ran.
    const officialResults = result.official.facts?.subagentToolResults as { isError: boolean }[];
    assert.equal(officialResults.length, 2);
    assert.ok(
      officialResults.some((r) => r.isError),
      'a subagent tool call failed on the official SDK',
    );
    const failures = JSON.stringify(normaliseMessages(result.official.messages));
    assert.match(failures, /Tool permission request failed: AbortError: Stream closed/);
    // Everything else is the same: both runs end after the CLI-started turn, without an error.
    assert.equal(result.official.error, undefined);
    assert.equal(result.warden.error, undefined);
    const kinds = (messages: typeof result.warden.messages) => messages.map((m) => m.type);
    assert.deepEqual(kinds(result.warden.messages), kinds(result.official.messages));
  });

  it('both SDKs also read the transcripts of that last run alike', async () => {
    await assertSessionFunctionsAgree(worlds, { acrossWorlds: false });
  });

  it('Warden reported no warnings', () => {
    assert.deepEqual(worlds.find((w) => w.name === 'warden')?.warnings, []);
  });
});
