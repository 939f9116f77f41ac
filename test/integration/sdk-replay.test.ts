// query() against recordings of the real Claude Code 2.1.328, played back by the fake CLI (replay mode):
// the fake writes the CLI's recorded lines and waits, wherever the recording shows the host speaking, for
// Warden to write the matching line. For each session this checks that query() yields exactly what the
// CLI wrote minus what the SDK consumes (control frames, keep_alive, sdk_host_only state frames), that
// canUseTool saw the recorded requests, that every line Warden wrote is the line the official SDK wrote
// (ids of our own requests aside), that stdin closed only after the last result, and that the query
// ended by itself. S3-close also runs with its state frames stripped, as an older CLI would send it.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';

import { query as officialQuery } from '@anthropic-ai/claude-agent-sdk';

import { query, type CanUseTool, type Prompt, type Query, type SDKUserMessage } from '../../src/index.js';
import { fakeCliPath } from '../../src/testing/fake-cli.js';
import { collect, fakeRun, type Frame } from './helpers/sdk-fake.js';
import {
  cliLines,
  expectedMessages,
  hostLines,
  loadTranscript,
  permissionRequests,
  replayedLines,
  transcriptPath,
  withdrawnIds,
  type TranscriptEntry,
} from './helpers/sdk-transcript.js';
import { assertNoProcess } from './transport-helpers.js';

const HANG = { timeout: 20_000 };

interface ReplayOptions {
  strip?: boolean;
  prompt: Prompt;
  /** Gets the query, for callbacks that call its control methods. */
  canUseTool: (q: Query) => CanUseTool;
  each?: (message: Frame) => void;
}

/** The host lines the official SDK wrote, minus late replies to requests the CLI had withdrawn. */
function recordedHostLines(entries: readonly TranscriptEntry[]): Frame[] {
  const withdrawn = withdrawnIds(entries);
  return hostLines(entries).filter(
    (frame) => !(frame.type === 'control_response' && withdrawn.has(String(frame.response?.request_id))),
  );
}

/** Host request ids are random on both sides; everything else must be the same line. */
function maskHostRequestIds(frame: Frame): Frame {
  return frame.type === 'control_request' ? { ...frame, request_id: '<host id>' } : frame;
}

async function replay(t: TestContext, name: string, options: ReplayOptions): Promise<void> {
  const entries = loadTranscript(name);
  const strip = options.strip === true;
  const fake = fakeRun(t, 'replay', {
    FAKE_CLI_TRANSCRIPT: transcriptPath(name),
    ...(strip ? { FAKE_CLI_STRIP_STATE: '1' } : {}),
  });
  const asks: [string, string | undefined][] = [];
  const ref: { query?: Query } = {};
  const canUseTool: CanUseTool = (toolName, input, context) => {
    asks.push([toolName, context.agentID]);
    return options.canUseTool(ref.query!)(toolName, input, context);
  };
  const q = query({ prompt: options.prompt, options: { ...fake.options, canUseTool } });
  ref.query = q;
  const initialization = q.initializationResult();
  const { messages, error } = await collect(q, options.each);
  const lines = replayedLines(entries, { strip });

  assert.equal(error, undefined, 'the query ended by itself, without an error');
  assert.deepEqual(messages, expectedMessages(lines));
  assert.deepEqual(
    asks,
    permissionRequests(entries).map((frame): unknown[] => [frame.request.tool_name, frame.request.agent_id]),
  );
  const recordedInit = cliLines(entries).find((frame) => frame.type === 'control_response');
  assert.deepEqual(await initialization, recordedInit?.response.response);

  const report = fake.report();
  assert.equal(report.exitCode, 0);
  assert.equal(report.linesWritten, lines.length, 'the whole recording was played');
  assert.deepEqual(
    report.received.map(({ frame }) => maskHostRequestIds(frame)),
    recordedHostLines(entries).map(maskHostRequestIds),
  );
  const lastResult = lines.findLastIndex((frame) => frame.type === 'result') + 1;
  assert.ok(
    report.stdinClosedAfterLines !== null && report.stdinClosedAfterLines >= lastResult,
    `stdin closed after line ${report.stdinClosedAfterLines}; the last result is line ${lastResult}`,
  );
  assert.equal(fake.warnings.length, 0, fake.warnings.map((w) => w.message).join('\n'));
  await assertNoProcess(report.pid);
}

const allow: CanUseTool = (_toolName, input) => Promise.resolve({ behavior: 'allow', updatedInput: input });

/** The recorded user message, written as an iterable prompt that returns after it (as the recorded one did). */
// eslint-disable-next-line @typescript-eslint/require-await -- an async generator is what the recording used
async function* recordedPrompt(entries: readonly TranscriptEntry[]): AsyncGenerator<SDKUserMessage> {
  yield hostLines(entries).find((frame) => frame.type === 'user') as SDKUserMessage;
}

/** The text of the first recorded prompt (a string, or the first text block). */
function textOf(entries: readonly TranscriptEntry[]): string {
  const content = hostLines(entries).find((frame) => frame.type === 'user')!.message.content;
  return typeof content === 'string' ? content : (content[0].text as string);
}

describe('query() replaying real CLI sessions', () => {
  test('S1: one Bash call, allowed', HANG, (t) =>
    replay(t, 'S1', { prompt: textOf(loadTranscript('S1')), canUseTool: () => allow }),
  );

  test('S2: one Bash call, denied', HANG, (t) =>
    replay(t, 'S2', {
      prompt: textOf(loadTranscript('S2')),
      canUseTool: () => () => Promise.resolve({ behavior: 'deny', message: 'Denied by S2 test policy' }),
    }),
  );

  test('S4: interrupt while a permission request is pending, then a second prompt', HANG, async (t) => {
    const entries = loadTranscript('S4');
    const [first, second] = hostLines(entries).filter((frame) => frame.type === 'user');
    let firstResult!: () => void;
    const resultSeen = new Promise<void>((resolve) => (firstResult = resolve));
    async function* prompt(): AsyncGenerator<SDKUserMessage> {
      yield first as SDKUserMessage;
      await resultSeen;
      yield second as SDKUserMessage;
    }
    let interrupted: Promise<unknown> | undefined;
    let withdrawn = false;
    await replay(t, 'S4', {
      prompt: prompt(),
      // Never answers by itself: the interrupt makes the CLI withdraw the request.
      canUseTool:
        (q) =>
        (_toolName, _input, { signal }) => {
          interrupted = q.interrupt();
          return new Promise((resolve) =>
            signal.addEventListener(
              'abort',
              () => {
                withdrawn = true;
                resolve({ behavior: 'deny', message: 'aborted' });
              },
              { once: true },
            ),
          );
        },
      each: (message) => {
        if (message.type === 'result') firstResult();
      },
    });
    assert.equal(withdrawn, true, "canUseTool's signal aborted when the CLI withdrew the request");
    assert.deepEqual(await interrupted, { still_queued: [] });
  });

  test('S3-close: a background agent asks twice after the root result', HANG, (t) =>
    replay(t, 'S3-close', { prompt: recordedPrompt(loadTranscript('S3-close')), canUseTool: () => allow }),
  );

  test('S3-close with the state frames stripped (an older CLI)', HANG, (t) =>
    replay(t, 'S3-close', {
      strip: true,
      prompt: recordedPrompt(loadTranscript('S3-close')),
      canUseTool: () => allow,
    }),
  );

  // The replay is only worth something if it notices a host that gets it wrong. The official SDK closes
  // stdin at the first result when the CLI sends no state frames, so the recorded reply to the
  // subagent's first request never comes: the replayer says so and exits 65.
  test(
    'the replay notices a host that closes stdin too early (official SDK, S3-close without state frames)',
    HANG,
    async (t) => {
      const entries = loadTranscript('S3-close');
      const fake = fakeRun(t, 'replay', {
        FAKE_CLI_TRANSCRIPT: transcriptPath('S3-close'),
        FAKE_CLI_STRIP_STATE: '1',
      });
      const q = officialQuery({
        prompt: textOf(entries),
        options: {
          pathToClaudeCodeExecutable: fakeCliPath(),
          env: fake.env,
          stderr: fake.onStderr,
          canUseTool: allow,
        },
      });
      const { messages, error } = await collect(q);

      // The official SDK's own error varies with timing ("Operation aborted" from the dropped reply, or the
      // exit code); the replayer's verdict does not.
      assert.ok(error instanceof Error, 'the official SDK fails the query');
      assert.match(fake.stderr(), /replay stalled: stdin closed while waiting for control_response:d1531eec/);
      assert.ok(
        messages.some((m) => m.type === 'result'),
        'the root result was delivered before that',
      );
      await assertNoProcess(await fake.pid, { deadNow: false });
      const report = fake.report();
      assert.equal(report.exitCode, 65);
      const rootResult =
        replayedLines(entries, { strip: true }).findIndex((frame) => frame.type === 'result') + 1;
      assert.ok(report.stdinClosedAfterLines !== null && report.stdinClosedAfterLines >= rootResult);
      assert.ok(
        !report.received.some(({ frame }) => frame.type === 'control_response'),
        'no reply got through',
      );
    },
  );
});
