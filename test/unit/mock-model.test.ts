// The mock's wire behaviour over real HTTP on 127.0.0.1: SSE streaming as the Messages API does it,
// non-streaming replies, count_tokens, errors of every kind, and replies that hang until close().
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';

import fc from 'fast-check';

import { startMockModel } from '../../src/testing/index.js';
import type { MockModelOptions, Reply } from '../../src/testing/index.js';
import { renderMessage, sseEvents } from '../../src/testing/mock-reply.js';
import { cliRequestBody, parseSse, post, readJson, reassemble } from '../e2e/helpers/messages-api.js';
import type { Json } from '../e2e/helpers/messages-api.js';

async function mockFor(t: TestContext, options: MockModelOptions) {
  const mock = await startMockModel(options);
  t.after(() => mock.close());
  return mock;
}

const TOOL_REPLY: Reply = {
  content: [
    { type: 'text', text: 'Let me run that for you, in a text long enough to be split in several deltas.' },
    { type: 'tool_use', name: 'Bash', input: { command: 'echo "héllo ✓"', description: 'Say hello' } },
  ],
};

void test('streams message_start, blocks with their deltas, message_delta and message_stop in order', async (t) => {
  const mock = await mockFor(t, { script: () => TOOL_REPLY });
  const res = await post(mock.url, '/v1/messages?beta=true', cliRequestBody({ prompt: '[[a]] go' }));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  assert.match(res.headers.get('request-id') ?? '', /^req_mock_\d+$/);
  const events = parseSse(await res.text());

  for (const { event, data } of events) assert.equal(data.type, event, 'each data.type names its event');
  const shape = events.map(({ data }) =>
    data.type === 'content_block_delta'
      ? `delta:${data.index}:${data.delta.type}`
      : `${data.type}${data.index ?? ''}`,
  );
  const collapsed = shape.filter((name, i) => name !== shape[i - 1]);
  assert.deepEqual(collapsed, [
    'message_start',
    'ping',
    'content_block_start0',
    'delta:0:text_delta',
    'content_block_stop0',
    'content_block_start1',
    'delta:1:input_json_delta',
    'content_block_stop1',
    'message_delta',
    'message_stop',
  ]);
  assert.ok(shape.filter((name) => name === 'delta:0:text_delta').length >= 2, 'long text comes in pieces');
  assert.ok(
    shape.filter((name) => name === 'delta:1:input_json_delta').length >= 2,
    'tool input comes in pieces',
  );

  const start = events[0]!.data.message;
  assert.match(start.id, /^msg_mock_\d+$/);
  assert.deepEqual(
    { role: start.role, model: start.model, content: start.content, stop_reason: start.stop_reason },
    { role: 'assistant', model: 'claude-opus-5-5', content: [], stop_reason: null },
  );
  const toolStart = events.find(({ data }) => data.type === 'content_block_start' && data.index === 1)!.data;
  assert.match(toolStart.content_block.id, /^toolu_mock_\d+$/);
  assert.deepEqual(toolStart.content_block.input, {});
  const delta = events.find(({ event }) => event === 'message_delta')!.data;
  assert.equal(delta.delta.stop_reason, 'tool_use');
  assert.ok(delta.usage.output_tokens > 0);

  const { text, tools } = reassemble(events);
  assert.equal(text, TOOL_REPLY.content![0]!.type === 'text' ? TOOL_REPLY.content![0]!.text : '');
  assert.deepEqual(tools, [{ name: 'Bash', input: { command: 'echo "héllo ✓"', description: 'Say hello' } }]);
});

void test('tool input of any shape reassembles from its input_json_delta pieces', () => {
  const ids = { nextMessageId: () => 'msg_1', nextToolUseId: () => 'toolu_1' };
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (input, text) => {
      const message = renderMessage(
        {
          content: [
            { type: 'text', text },
            { type: 'tool_use', name: 'T', input },
          ],
        },
        'm',
        ids,
      );
      const events = sseEvents(message, false).map(({ event, data }) => ({
        event,
        data: JSON.parse(JSON.stringify(data)),
      }));
      const rebuilt = reassemble(events);
      assert.equal(rebuilt.text, text);
      assert.deepEqual(rebuilt.tools, [{ name: 'T', input: JSON.parse(JSON.stringify(input)) }]);
      const pieces = events.filter(({ data }) => data.delta?.type === 'input_json_delta').length;
      assert.ok(pieces >= 2);
    }),
    { numRuns: 200 },
  );
});

void test('answers a non-streaming request with one complete message', async (t) => {
  const mock = await mockFor(t, { script: () => TOOL_REPLY });
  const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: 'hi', stream: false }));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json');
  const message = await readJson(res);
  assert.equal(message.type, 'message');
  assert.equal(message.stop_reason, 'tool_use');
  assert.equal(message.content[0].type, 'text');
  assert.deepEqual(
    { type: message.content[1].type, name: message.content[1].name, input: message.content[1].input },
    { type: 'tool_use', name: 'Bash', input: { command: 'echo "héllo ✓"', description: 'Say hello' } },
  );
  assert.match(message.content[1].id, /^toolu_mock_\d+$/);
  assert.equal(mock.requests[0]!.stream, false);
});

void test('null from the script gives a short default text that ends the turn', async (t) => {
  const mock = await mockFor(t, { script: () => null });
  const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: 'hi' }));
  const events = parseSse(await res.text());
  assert.equal(reassemble(events).text, 'ok');
  assert.equal(events.find(({ event }) => event === 'message_delta')!.data.delta.stop_reason, 'end_turn');
});

void test('count_tokens answers with a token estimate', async (t) => {
  const mock = await mockFor(t, {});
  const res = await post(mock.url, '/v1/messages/count_tokens', cliRequestBody({ prompt: 'count me' }));
  assert.equal(res.status, 200);
  const body = (await res.json()) as { input_tokens: number };
  assert.ok(Number.isInteger(body.input_tokens) && body.input_tokens > 0);
  assert.deepEqual(
    { path: mock.requests[0]!.path, status: mock.requests[0]!.status },
    { path: '/v1/messages/count_tokens', status: 200 },
  );
});

void test('unknown paths get a 404 with a JSON error body', async (t) => {
  const mock = await mockFor(t, {});
  for (const [method, path] of [
    ['GET', '/v1/models'],
    ['POST', '/v2/messages'],
    ['GET', '/v1/messages'],
  ] as const) {
    const res = await fetch(`${mock.url}${path}`, { method });
    assert.equal(res.status, 404);
    const body = await readJson(res);
    assert.deepEqual([body.type, body.error.type], ['error', 'not_found_error']);
    assert.match(body.error.message, new RegExp(`${method} ${path}`));
  }
  assert.deepEqual(
    mock.requests.map((r) => r.status),
    [404, 404, 404],
  );
});

void test('a malformed body gets a 400, is recorded, and the mock keeps serving', async (t) => {
  const mock = await mockFor(t, { script: () => ({ content: [{ type: 'text', text: 'still here' }] }) });
  for (const bad of ['{"model": "x", "messages": [', '"a string"', JSON.stringify({ model: 'x' })]) {
    const res = await post(mock.url, '/v1/messages', bad);
    assert.equal(res.status, 400);
    const body = await readJson(res);
    assert.deepEqual([body.type, body.error.type], ['error', 'invalid_request_error']);
  }
  assert.match(mock.requests[0]!.error ?? '', /malformed JSON/);
  assert.match(mock.requests[2]!.error ?? '', /messages/);

  const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: 'hi' }));
  assert.equal(reassemble(parseSse(await res.text())).text, 'still here');
});

void test('scripted error statuses come with the API error body and any extra headers', async (t) => {
  const replies: Record<string, Reply> = {
    '[[e400]]': { status: 400, error: 'bad thing' },
    '[[e429]]': { status: 429, headers: { 'retry-after': '0' } },
    '[[e500]]': { status: 500 },
    '[[e529]]': { status: 529, error: { type: 'overloaded_error', message: 'busy' } },
  };
  const mock = await mockFor(t, { script: (ctx) => replies[`[[${ctx.marker ?? ''}]]`] ?? null });
  const expected = [
    ['[[e400]]', 400, 'invalid_request_error', 'bad thing'],
    ['[[e429]]', 429, 'rate_limit_error', 'mock: HTTP 429'],
    ['[[e500]]', 500, 'api_error', 'mock: HTTP 500'],
    ['[[e529]]', 529, 'overloaded_error', 'busy'],
  ] as const;
  for (const [prompt, status, type, message] of expected) {
    const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt }));
    assert.equal(res.status, status);
    const body = await readJson(res);
    assert.deepEqual(body.error, { type, message });
    assert.match(body.request_id, /^req_mock_/);
    if (status === 429) assert.equal(res.headers.get('retry-after'), '0');
  }
  assert.deepEqual(
    mock.requests.map((r) => r.reply),
    expected.map(([, status]) => [`error ${status}`]),
  );
});

void test('a script that throws gives a 500 JSON error, is recorded, and the mock keeps serving', async (t) => {
  const mock = await mockFor(t, {
    script: (ctx) => {
      if (ctx.marker === 'boom') throw new Error('script exploded');
      return null;
    },
  });
  const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: '[[boom]]' }));
  assert.equal(res.status, 500);
  const body = await readJson(res);
  assert.equal(body.error.type, 'api_error');
  assert.match(body.error.message, /script exploded/);
  assert.match(mock.requests[0]!.error ?? '', /script exploded/);
  const next = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: 'fine' }));
  assert.equal(next.status, 200);
  await next.text();
});

void test('an invalid reply from the script is a 500 naming the problem', async (t) => {
  const replies: Record<string, unknown> = {
    a: 'text',
    b: { content: 'not a list' },
    c: { content: [{ type: 'tool_use', name: 'Bash' }] },
    d: { content: [{ type: 'image' }] },
    e: { status: 99 },
  };
  const mock = await mockFor(t, { script: (ctx) => replies[ctx.marker ?? ''] as Reply });
  for (const marker of Object.keys(replies)) {
    const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: `[[${marker}]]` }));
    assert.equal(res.status, 500);
    assert.match((await readJson(res)).error.message, /invalid reply/);
  }
  assert.ok(mock.requests.every((r) => /invalid reply/.test(r.error ?? '')));
});

void test('delayMs holds the reply back and chunkDelayMs spaces the events', async (t) => {
  const mock = await mockFor(t, {
    script: () => ({ content: [{ type: 'text', text: 'late' }], delayMs: 150, chunkDelayMs: 10 }),
  });
  const began = performance.now();
  const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: 'hi' }));
  const headersAt = performance.now() - began;
  const events = parseSse(await res.text());
  const doneAt = performance.now() - began;
  assert.ok(headersAt >= 140, `headers after ${headersAt} ms`);
  assert.ok(
    doneAt - 150 >= (events.length - 1) * 10 - 10,
    `events spaced: ${doneAt} ms for ${events.length}`,
  );
  assert.equal(reassemble(events).text, 'late');
});

void test('a hanging streamed reply stays open until close() ends it', async (t) => {
  const mock = await startMockModel({
    script: () => ({ content: [{ type: 'text', text: 'partial' }], hang: true }),
  });
  t.after(() => mock.close());
  const res = await post(mock.url, '/v1/messages', cliRequestBody({ prompt: 'hi' }));
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  let received = '';
  while (!received.includes('content_block_stop')) {
    const { value, done } = await reader.read();
    assert.equal(done, false, 'the stream stays open');
    received += Buffer.from(value).toString('utf8');
  }
  assert.equal(received.includes('message_stop'), false);
  assert.equal(mock.requests[0]!.done, false);

  const pendingRead = reader.read().then(
    (chunk) => (chunk.done ? 'ended' : 'more data'),
    () => 'ended',
  );
  await mock.close();
  await mock.close();
  const last = await pendingRead;
  assert.equal(last, 'ended');
  assert.equal(mock.requests[0]!.done, true);
  assert.deepEqual(mock.requests[0]!.reply, ['text', 'hang']);
});

void test('close() also ends non-streaming hangs and scripts that never settle', async (t) => {
  const mock = await startMockModel({
    script: (ctx) => (ctx.marker === 'never' ? new Promise<null>(() => {}) : { hang: true }),
  });
  t.after(() => mock.close());
  const hanging = post(mock.url, '/v1/messages', cliRequestBody({ prompt: 'x', stream: false })).then(
    () => 'answered',
    () => 'dropped',
  );
  const waiting = post(mock.url, '/v1/messages', cliRequestBody({ prompt: '[[never]]' })).then(
    () => 'answered',
    () => 'dropped',
  );
  await mock.waitForRequest((r) => r.marker === 'never');
  await mock.waitForRequest((r) => r.stream === false && r.status === 200);
  await mock.close();
  assert.deepEqual(await Promise.all([hanging, waiting]), ['dropped', 'dropped']);
  assert.ok(mock.requests.every((r) => r.done));
});

void test('waitForRequest resolves for past and future requests and honours an abort signal', async (t) => {
  const mock = await mockFor(t, {});
  const future = mock.waitForRequest((r) => r.marker === 'later');
  await (await post(mock.url, '/v1/messages', cliRequestBody({ prompt: '[[first]]' }))).text();
  assert.equal((await mock.waitForRequest((r) => r.marker === 'first')).n, 1);
  await (await post(mock.url, '/v1/messages', cliRequestBody({ prompt: '[[later]]' }))).text();
  assert.equal((await future).n, 2);

  const controller = new AbortController();
  const never = mock.waitForRequest((r) => r.marker === 'never', { signal: controller.signal });
  controller.abort(new Error('gave up'));
  await assert.rejects(never, /gave up/);
});

void test('logDir receives requests.jsonl and the request bodies', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-mocklog-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const mock = await startMockModel({ logDir: dir });
  await (await post(mock.url, '/v1/messages', cliRequestBody({ prompt: '[[logged]]' }))).text();
  await (await post(mock.url, '/v1/messages', 'not json')).text();
  await mock.close();
  const lines = readFileSync(join(dir, 'requests.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Json);
  assert.deepEqual(lines.map((line): unknown[] => [line.n, line.status, line.marker]).sort(), [
    [1, 200, 'logged'],
    [2, 400, undefined],
  ]);
  assert.equal(existsSync(join(dir, 'bodies', '0001.json')), true);
});

void test('bad options throw TypeError at once', () => {
  assert.throws(() => startMockModel({ script: 5 as never }), TypeError);
  assert.throws(() => startMockModel({ port: -1 }), TypeError);
  assert.throws(() => startMockModel({ port: 1.5 }), TypeError);
  assert.throws(() => startMockModel({ logDir: '' }), TypeError);
  assert.throws(() => startMockModel(null as never), TypeError);
});
