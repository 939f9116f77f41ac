// The Responses API mock's wire behaviour over real HTTP on 127.0.0.1: the event sequence Codex reads for
// text, exec_command and apply_patch items, routing on the turn's prompt and the tool outputs sent back,
// errors, unknown paths and a reply that hangs until close().
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestContext } from 'node:test';

import { startMockResponses } from '../../src/testing/index.js';
import type { MockResponsesOptions } from '../../src/testing/index.js';
import { parseSse } from '../e2e/helpers/messages-api.js';

async function mockFor(t: TestContext, options: MockResponsesOptions) {
  const mock = await startMockResponses(options);
  t.after(() => mock.close());
  return mock;
}

/** A request body shaped like Codex's: its own context blocks, the prompt, then any tool round trips. */
function codexBody(prompt: string, after: unknown[] = []): Record<string, unknown> {
  const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  return {
    model: 'gpt-5.5',
    stream: true,
    tools: [
      { type: 'function', name: 'exec_command' },
      { type: 'custom', name: 'apply_patch' },
    ],
    input: [user('<environment_context>\n  <cwd>/x</cwd>\n</environment_context>'), user(prompt), ...after],
  };
}

function post(url: string, body: unknown, path = '/responses'): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'thread-id': 'thread-1' },
    body: JSON.stringify(body),
  });
}

void test('streams created, each item with its deltas, and completed, numbered, for text, exec and patch', async (t) => {
  const mock = await mockFor(t, {
    script: () => ({
      items: [
        { type: 'text', text: 'Running it now, with a text long enough for more than one delta.' },
        { type: 'exec', cmd: 'echo hi', escalate: 'needs the network' },
        { type: 'patch', patch: '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n' },
      ],
    }),
  });
  assert.match(mock.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const res = await post(mock.url, codexBody('[[go]] do it'));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const events = parseSse(await res.text());
  for (const { event, data } of events) assert.equal(data.type, event, 'each data.type names its event');
  assert.deepEqual(
    events.map(({ data }) => data.sequence_number as number),
    events.map((_, index) => index),
  );
  const types = events.map(({ event }) => event);
  assert.equal(types[0], 'response.created');
  assert.equal(types.at(-1), 'response.completed');
  assert.ok(types.includes('response.output_text.delta'));
  assert.ok(types.includes('response.function_call_arguments.done'));
  assert.ok(types.includes('response.custom_tool_call_input.done'));

  const done = events
    .filter(({ event }) => event === 'response.output_item.done')
    .map(({ data }) => data.item as Record<string, unknown>);
  assert.equal(done.length, 3);
  const [message, exec, patch] = done;
  assert.deepEqual(
    (message?.['content'] as { text: string }[])[0]?.text,
    'Running it now, with a text long enough for more than one delta.',
  );
  assert.equal(exec?.['name'], 'exec_command');
  assert.deepEqual(JSON.parse(String(exec?.['arguments'])), {
    cmd: 'echo hi',
    sandbox_permissions: 'require_escalated',
    justification: 'needs the network',
  });
  assert.equal(patch?.['type'], 'custom_tool_call');
  assert.equal(patch?.['name'], 'apply_patch');
  const completed = events.at(-1)?.data.response as { output: unknown[]; usage: { total_tokens: number } };
  assert.equal(completed.output.length, 3);
  assert.ok(completed.usage.total_tokens > 0);

  const [record] = mock.requests;
  assert.equal(record?.threadId, 'thread-1');
  assert.equal(record?.turnText, '[[go]] do it');
  assert.equal(record?.turnMarker, 'go');
  assert.deepEqual(record?.reply, ['text', 'exec', 'patch']);
});

void test('routes on the tool outputs sent back since the turn began, and defaults to a short text', async (t) => {
  const mock = await mockFor(t, {
    script: (ctx) =>
      ctx.turnRounds === 0
        ? { items: [{ type: 'exec', cmd: 'echo hi', callId: 'call_a' }] }
        : { items: [{ type: 'text', text: `saw ${ctx.toolOutputs.map((o) => o.output).join(',')}` }] },
  });
  await (await post(mock.url, codexBody('go'))).text();
  const second = codexBody('go', [
    { type: 'function_call', call_id: 'call_a', name: 'exec_command', arguments: '{}' },
    { type: 'function_call_output', call_id: 'call_a', output: 'hi\n' },
  ]);
  const events = parseSse(await (await post(mock.url, second)).text());
  const text = events.find(({ event }) => event === 'response.output_text.done')?.data.text;
  assert.equal(text, 'saw hi\n');
  assert.deepEqual(mock.requests[1]?.toolOutputs, [
    { callId: 'call_a', type: 'function_call_output', output: 'hi\n' },
  ]);

  const plain = await mockFor(t, {});
  const reply = parseSse(await (await post(plain.url, codexBody('hello'))).text());
  assert.equal(reply.find(({ event }) => event === 'response.output_text.done')?.data.text, 'Done.');
});

void test('answers errors, unknown paths and bad bodies with an error body, and ends a hanging reply on close', async (t) => {
  const mock = await mockFor(t, {
    script: (ctx) => (ctx.turnText === 'fail' ? { status: 500, error: 'boom' } : { hang: true }),
  });
  const failed = await post(mock.url, codexBody('fail'));
  assert.equal(failed.status, 500);
  assert.deepEqual(((await failed.json()) as { error: { message: string } }).error.message, 'boom');
  assert.equal((await post(mock.url, codexBody('x'), '/elsewhere')).status, 404);
  assert.equal((await post(mock.url, { input: 'nope' })).status, 400);

  const hanging = await post(mock.url, codexBody('hang'));
  const body = hanging.text().catch(() => 'ended');
  await mock.waitForRequest((record) => record.turnText === 'hang' && record.status === 200);
  await mock.close();
  assert.ok(!(await body).includes('response.completed'));
  assert.throws(() => startMockResponses({ port: -1 }), TypeError);
});
