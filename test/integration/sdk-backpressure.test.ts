// Backpressure, not loss: a consumer that yields to the event loop after every message, against a CLI
// that writes 20,000 messages as fast as its stdout takes them. Everything arrives in order, and the
// fake never gets far ahead of the consumer: Warden buffers at most maxBufferedMessages messages, then
// stops reading, and the pipe fills. The fake reports its progress on stderr, which a slow stdout
// reader does not hold back.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, test } from 'node:test';

import { query } from '../../src/index.js';
import { collect, fakeRun, ofType, seqs } from './helpers/sdk-fake.js';
import { assertNoProcess } from './transport-helpers.js';

const COUNT = 20_000;
const LIMIT = 32;
/** Bytes that may sit below Warden's queue: the pipe, a read chunk or two, the fake's own buffer. */
const BYTES_IN_FLIGHT = 6 * 64 * 1024;
/** The fake reports every 100 messages. */
const REPORT_STEP = 100;

describe('query() with a slow consumer', () => {
  test(
    'a flood of 20,000 messages: all delivered in order, buffering bounded',
    { timeout: 120_000 },
    async (t) => {
      const fake = fakeRun(t, 'message-flood', {
        FAKE_CLI_COUNT: String(COUNT),
        FAKE_CLI_PAD: '200',
        FAKE_CLI_NO_STATE: '1',
      });
      const q = query({ prompt: 'flood', options: { ...fake.options, maxBufferedMessages: LIMIT } });
      let consumed = 0;
      let maxAhead = 0;
      let lineBytes = 0;
      const { messages, error } = await collect(q, async (message) => {
        if (message.type === 'assistant') {
          consumed += 1;
          maxAhead = Math.max(maxAhead, fake.wrote() - consumed);
          lineBytes = Math.max(lineBytes, JSON.stringify(message).length + 1);
        }
        await nextTurn();
      });

      assert.equal(error, undefined);
      const report = fake.report();
      assert.deepEqual(
        seqs(messages),
        Array.from({ length: report.linesWritten - 1 }, (_, i) => i + 1),
      );
      const assistants = ofType(messages, 'assistant');
      assert.equal(assistants.length, COUNT);
      assistants.forEach((m, i) => {
        if (m.message.content[0].text !== `message ${i + 1}`) assert.fail(`message ${i + 1} is out of place`);
      });
      const bound = LIMIT + Math.ceil(BYTES_IN_FLIGHT / lineBytes) + REPORT_STEP;
      assert.ok(maxAhead <= bound, `the fake got ${maxAhead} messages ahead (bound ${bound})`);
      assert.ok(maxAhead > 0, 'the fake reported its progress');
      await assertNoProcess(report.pid);
    },
  );
});
