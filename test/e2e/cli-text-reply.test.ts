// The real CLI, spawned directly in stream-json mode, answers a plain prompt through the mock and ends the
// turn with a result.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { assertCleanEnd, assistantText } from './helpers/assertions.js';
import { startOfflineCli } from './helpers/offline-cli.js';

void test('a plain text reply ends with a success result', { timeout: 90_000 }, async (t) => {
  const script = scenario().on('hello').thenAnswer('Hello from the mock').build();
  const { cli, mock, scratch } = await startOfflineCli(t, { script });

  const initId = await cli.initialize();
  await cli.sendUserText('[[hello]] say hello');

  const initReply = await cli.waitFor(
    (f) => f.type === 'control_response' && f.response?.request_id === initId,
  );
  assert.equal(initReply.response.subtype, 'success');
  assert.equal(typeof initReply.response.response.pid, 'number');
  const init = await cli.waitFor((f) => f.type === 'system' && f.subtype === 'init');
  assert.equal(init.cwd, scratch.cwd);
  const assistant = await cli.waitFor((f) => f.type === 'assistant');
  assert.equal(assistantText(assistant), 'Hello from the mock');
  const result = await cli.waitFor((f) => f.type === 'result');
  assert.equal(result.subtype, 'success');
  assert.equal(result.is_error, false);
  assert.equal(result.result, 'Hello from the mock');

  assert.equal(mock.requests.length, 1);
  assert.deepEqual(
    { kind: mock.requests[0]!.kind, marker: mock.requests[0]!.marker, rounds: mock.requests[0]!.rounds },
    { kind: 'main', marker: 'hello', rounds: 0 },
  );
  await assertCleanEnd(cli, scratch);
});
