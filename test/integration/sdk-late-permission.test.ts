// The first guarantee: the control channel stays open while anything can still ask. The fake CLI
// (bg-permission-late) ends the root turn with a `result` while a background agent runs, then the agent
// asks for permission. If stdin is closed by then, the fake fails the tool with "Stream closed", exactly
// as the real CLI does, and says so in a fake_cli_report message.
//
// Warden must answer it with or without session_state_changed frames. The official SDK, given a CLI that
// sends no state frames (an older CLI, or a wrapper that drops the variable), closes stdin at the first
// result and loses the request: that is the documented difference (docs/compatibility.md, "when stdin
// closes"), asserted here so that it stays true of the fake too.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';

import { query as officialQuery } from '@anthropic-ai/claude-agent-sdk';

import { InputClosedError, query, type CanUseTool, type WardenError } from '../../src/index.js';
import { fakeCliPath } from '../../src/testing/fake-cli.js';
import { collect, fakeReportMessage, fakeRun, ofType, type Frame } from './helpers/sdk-fake.js';
import { assertNoProcess } from './transport-helpers.js';

const HANG = { timeout: 20_000 };
const TASK_ID = 'a0fa4e0000000late';

interface Ask {
  toolName: string;
  agentID: string | undefined;
  toolUseID: string;
}

function recordingCanUseTool(asks: Ask[]): CanUseTool {
  return (toolName, input, { agentID, toolUseID }) => {
    asks.push({ toolName, agentID, toolUseID });
    return Promise.resolve({ behavior: 'allow', updatedInput: input });
  };
}

async function runWarden(t: TestContext, env: Record<string, string>): Promise<void> {
  const fake = fakeRun(t, 'bg-permission-late', env);
  const asks: Ask[] = [];
  const q = query({
    prompt: 'inspect the host in the background',
    options: { ...fake.options, canUseTool: recordingCanUseTool(asks) },
  });
  const { messages, error } = await collect(q);

  assert.equal(error, undefined, 'the query ended by itself');
  assert.deepEqual(await q.inputClosed, { reason: 'settled' }, 'stdin closed because nothing could ask');
  assert.deepEqual(asks, [{ toolName: 'Read', agentID: TASK_ID, toolUseID: 'toolu_fake_late_read' }]);
  const summary = fakeReportMessage(messages);
  assert.equal(summary.late_request, 'answered');
  assert.equal(summary.stdin_open_when_asked, true);
  assert.equal(summary.reply.response.behavior, 'allow');
  const results = ofType(messages, 'result');
  assert.equal(results.length, 2, 'the root turn and the turn the CLI started itself');
  assert.equal(results[1]?.origin?.kind, 'task-notification');
  // stdin closed only after the last result had been written (and so after the late request).
  const report = fake.report();
  const lastResultLines = (results[1]?.seq as number) + 1;
  assert.ok(
    report.stdinClosedAfterLines !== null && report.stdinClosedAfterLines >= lastResultLines,
    `stdin closed after ${report.stdinClosedAfterLines} lines; the last result is line ${lastResultLines}`,
  );
  await assertNoProcess(report.pid);
}

/** The official SDK against the same fake; resolves with what the fake reported about the late request. */
async function runOfficial(
  t: TestContext,
  env: Record<string, string>,
): Promise<{ summary: Frame; asks: number }> {
  const fake = fakeRun(t, 'bg-permission-late', env);
  let asks = 0;
  const q = officialQuery({
    prompt: 'inspect the host in the background',
    options: {
      pathToClaudeCodeExecutable: fakeCliPath(),
      env: fake.env,
      stderr: fake.onStderr,
      canUseTool: (_toolName, input) => {
        asks += 1;
        return Promise.resolve({ behavior: 'allow', updatedInput: input });
      },
    },
  });
  const { messages, error } = await collect(q);
  assert.equal(error, undefined);
  await assertNoProcess(await fake.pid, { deadNow: false });
  return { summary: fakeReportMessage(messages), asks };
}

describe('a permission request from a background agent after the root result', () => {
  test('Warden: reaches canUseTool; stdin closes only after the last result (state frames sent)', HANG, (t) =>
    runWarden(t, {}),
  );

  test('Warden: the same with no state frames (an older CLI)', HANG, (t) =>
    runWarden(t, { FAKE_CLI_NO_STATE: '1' }),
  );

  test(
    'official SDK without state frames: stdin closes at the result and the request is lost',
    HANG,
    async (t) => {
      const { summary } = await runOfficial(t, { FAKE_CLI_NO_STATE: '1' });
      assert.equal(summary.late_request, 'stream_closed');
      assert.equal(summary.reply, null);
    },
  );

  test('official SDK with state frames: answered (the fake is faithful, not rigged)', HANG, async (t) => {
    const { summary, asks } = await runOfficial(t, {});
    assert.equal(summary.late_request, 'answered');
    assert.equal(asks, 1);
  });
});

describe('the opt-in ceiling (maxInputWaitMs)', () => {
  test(
    'closes stdin when it fires, says so through inputClosed and onWarning, and the late request fails',
    HANG,
    async (t) => {
      // The subagent works for 2 s before asking; the ceiling is 200 ms after the root result.
      const fake = fakeRun(t, 'bg-permission-late', { FAKE_CLI_LATE_MS: '2000' });
      const warnings: WardenError[] = [];
      const asks: Ask[] = [];
      const q = query({
        prompt: 'inspect the host in the background',
        options: {
          ...fake.options,
          canUseTool: recordingCanUseTool(asks),
          maxInputWaitMs: 200,
          onWarning: (warning) => warnings.push(warning),
        },
      });
      const { messages, error } = await collect(q);

      assert.equal(error, undefined, 'the query still ends by itself');
      // Said through the query, not in the stream: the messages are only those the official SDK yields.
      assert.deepEqual(ofType(messages, 'system', 'warden_input_closed'), []);
      const closed = await q.inputClosed;
      assert.equal(closed.reason, 'max_input_wait');
      assert.ok(closed.reason === 'max_input_wait');
      assert.deepEqual(closed.openReasons, ['1 background task(s) running', 'the CLI reports running']);
      assert.match(closed.message, /maxInputWaitMs \(200 ms\)/);
      const closedWarnings = warnings.filter((w) => w instanceof InputClosedError);
      assert.equal(closedWarnings.length, 1);
      assert.equal(closedWarnings[0]?.code, 'INPUT_CLOSED');
      // What the ceiling costs, made visible: the request that came later could not be answered.
      assert.deepEqual(asks, []);
      assert.equal(fakeReportMessage(messages).late_request, 'stream_closed');
      await q.closed;
      await assertNoProcess(await fake.pid);
    },
  );
});
