// The scenario vocabulary: which step answers which request, waits, scripted API errors, CLI-started turns
// after a task notification, and the TypeErrors a mis-built scenario raises at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import type { MockScript, Reply, RequestContext } from '../../src/testing/index.js';
import { ctx } from './helpers/request-context.js';

function main(marker: string, turnRounds = 0, extra: Partial<RequestContext> = {}): RequestContext {
  return ctx({ marker, turnMarker: marker, rounds: turnRounds, turnRounds, ...extra });
}

function sub(marker: string, turnRounds = 0): RequestContext {
  return ctx({
    kind: 'subagent',
    agentId: 'agent-1',
    marker,
    turnMarker: marker,
    rounds: turnRounds,
    turnRounds,
  });
}

async function answer(script: MockScript, request: RequestContext): Promise<Reply | null | undefined> {
  return script(request);
}

void test('steps follow the tool round trips of the turn; anything else gets the default', async () => {
  const script = scenario()
    .on('x')
    .callTool('Bash', { command: 'touch f', description: 'touch' }, { text: 'Touching.' })
    .thenAnswer('done')
    .build();
  assert.deepEqual(await answer(script, main('x', 0)), {
    content: [
      { type: 'text', text: 'Touching.' },
      { type: 'tool_use', name: 'Bash', input: { command: 'touch f', description: 'touch' } },
    ],
  });
  assert.deepEqual(await answer(script, main('x', 1)), { content: [{ type: 'text', text: 'done' }] });
  // A retry of the same request gets the same answer.
  assert.deepEqual(await answer(script, main('x', 1)), { content: [{ type: 'text', text: 'done' }] });
  assert.equal(await answer(script, main('x', 2)), null);
  assert.equal(await answer(script, main('other', 0)), null);
  assert.equal(
    await answer(script, ctx({ kind: 'side', sideKind: 'title', marker: 'x', turnMarker: 'x' })),
    null,
  );
});

void test('main and subagent tracks with the same marker stay apart', async () => {
  const script = scenario().on('a').thenAnswer('main a').subagent('a').thenReport('sub a').build();
  assert.deepEqual(await answer(script, main('a')), { content: [{ type: 'text', text: 'main a' }] });
  assert.deepEqual(await answer(script, sub('a')), { content: [{ type: 'text', text: 'sub a' }] });
});

void test('launchBackgroundAgent, callTools and computed texts build the expected replies', async () => {
  const script = scenario()
    .on('bg')
    .launchBackgroundAgent({ prompt: '[[w]] work', description: 'worker' })
    .callTools([
      { name: 'Read', input: { file_path: '/a' } },
      { name: 'Read', input: { file_path: '/b' }, id: 'toolu_fixed' },
    ])
    .thenAnswer((c) => `saw ${c.toolResults.map((r) => r.text).join('+')}`)
    .build();
  assert.deepEqual(await answer(script, main('bg', 0)), {
    content: [
      {
        type: 'tool_use',
        name: 'Agent',
        input: {
          description: 'worker',
          prompt: '[[w]] work',
          subagent_type: 'general-purpose',
          run_in_background: true,
        },
      },
    ],
  });
  const second = await answer(script, main('bg', 1));
  assert.deepEqual(second?.content?.[1], {
    type: 'tool_use',
    name: 'Read',
    input: { file_path: '/b' },
    id: 'toolu_fixed',
  });
  const results = [
    { toolUseId: 'a', text: 'A', isError: false },
    { toolUseId: 'b', text: 'B', isError: false },
  ];
  assert.deepEqual(await answer(script, main('bg', 2, { toolResults: results })), {
    content: [{ type: 'text', text: 'saw A+B' }],
  });
});

void test('after() holds a step until the test event, and a function is called per request', async () => {
  let release!: () => void;
  const event = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const script = scenario()
    .subagent('w')
    .after(event)
    .callTool('Bash', { command: 'ls' })
    .after(() => {
      calls += 1;
    })
    .thenReport('ok')
    .build();
  let settled = false;
  const pending = answer(script, sub('w', 0)).then((reply) => {
    settled = true;
    return reply;
  });
  // Every microtask has run by the next macrotask: an unheld step would have settled by then.
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'the step waits for the event');
  release();
  assert.equal((await pending)?.content?.[0]?.type, 'tool_use');
  await answer(script, sub('w', 1));
  await answer(script, sub('w', 1));
  assert.equal(calls, 2);
});

void test('failFirst errors the first requests of a step, then the retries get the step', async () => {
  const builder = scenario().on('r').failFirst(2, 529, 'busy').thenAnswer('recovered');
  const script = builder.build();
  assert.deepEqual(await answer(script, main('r')), { status: 529, error: 'busy' });
  assert.deepEqual(await answer(script, main('r')), { status: 529, error: 'busy' });
  assert.deepEqual(await answer(script, main('r')), { content: [{ type: 'text', text: 'recovered' }] });
  // Each built script counts on its own.
  assert.deepEqual(await answer(builder.build(), main('r')), { status: 529, error: 'busy' });
});

void test('failWith and hang answer every request of their step', async () => {
  const script = scenario().on('bad').failWith(400, 'nope').on('stuck').hang().build();
  assert.deepEqual(await answer(script, main('bad')), { status: 400, error: 'nope' });
  assert.deepEqual(await answer(script, main('bad')), { status: 400, error: 'nope' });
  assert.deepEqual(await answer(script, main('stuck')), { content: [], hang: true });
});

void test('onTaskNotification answers the turn the CLI starts after a task notification', async () => {
  const script = scenario()
    .on('bg')
    .launchBackgroundAgent({ prompt: '[[w]] x', description: 'w' })
    .thenAnswer('launched')
    .onTaskNotification()
    .callTool('Bash', { command: 'echo follow-up' })
    .thenAnswer('worker finished')
    .build();
  // The notification turn: conversation marker bg, no marker in the notification itself, rounds so far 1.
  const notified = (turnRounds: number) =>
    ctx({ marker: 'bg', rounds: 1 + turnRounds, turnRounds, turns: 2, isTaskNotification: true });
  assert.equal((await answer(script, notified(0)))?.content?.[0]?.type, 'tool_use');
  assert.deepEqual(await answer(script, notified(1)), {
    content: [{ type: 'text', text: 'worker finished' }],
  });
  assert.deepEqual(await answer(script, main('bg', 1)), { content: [{ type: 'text', text: 'launched' }] });
  const unscripted = scenario().on('bg').thenAnswer('x').build();
  assert.equal(await answer(unscripted, notified(0)), null);
});

void test('on() without a marker covers main turns no other track claims; otherwise() the rest', async () => {
  const script = scenario()
    .on('x')
    .thenAnswer('specific')
    .on()
    .thenAnswer('generic')
    .otherwise((c) => ({ content: [{ type: 'text', text: `fallback ${c.kind}` }] }))
    .build();
  assert.deepEqual(await answer(script, main('x')), { content: [{ type: 'text', text: 'specific' }] });
  assert.deepEqual(await answer(script, ctx()), { content: [{ type: 'text', text: 'generic' }] });
  assert.deepEqual(await answer(script, sub('x')), {
    content: [{ type: 'text', text: 'fallback subagent' }],
  });
  assert.deepEqual(await answer(script, ctx({ kind: 'side', sideKind: 'title' })), {
    content: [{ type: 'text', text: 'fallback side' }],
  });
});

void test('reply() takes any reply; one without tool calls ends the turn', () => {
  const builder = scenario()
    .on('x')
    .reply({ content: [{ type: 'text', text: 'plain' }], delayMs: 5 });
  assert.throws(() => builder.thenAnswer('unreachable'), TypeError);
});

void test('a mis-built scenario throws TypeError at once', () => {
  assert.throws(() => scenario().callTool('Bash', {}), /start a track/);
  assert.throws(() => scenario().on(''), TypeError);
  assert.throws(() => scenario().on('a]]b'), TypeError);
  assert.throws(() => scenario().on('a').on('a'), /already defined/);
  assert.throws(() => scenario().on('a').thenAnswer('x').thenAnswer('y'), /already ended its turn/);
  assert.throws(() => scenario().on('a').after(Promise.resolve()).build(), /must be followed by a step/);
  assert.throws(() => scenario().on('a').failFirst(1, 500).subagent('b'), /must be followed by a step/);
  assert.throws(
    () => scenario().on('a').after(Promise.resolve()).onTaskNotification(),
    /must be followed by a step/,
  );
  assert.throws(
    () =>
      scenario()
        .on('a')
        .after(42 as never),
    TypeError,
  );
  assert.throws(() => scenario().on('a').failFirst(0, 500), TypeError);
  assert.throws(() => scenario().on('a').failWith(200), TypeError);
  assert.throws(() => scenario().on('a').callTool('', {}), TypeError);
  assert.throws(
    () =>
      scenario()
        .on('a')
        .callTool('Bash', [] as never),
    TypeError,
  );
  assert.throws(() => scenario().on('a').callTools([]), TypeError);
  assert.throws(
    () =>
      scenario()
        .on('a')
        .launchBackgroundAgent({ prompt: 'p' } as never),
    TypeError,
  );
  assert.throws(() => scenario().on('a').onTaskNotification().onTaskNotification(), /already has/);
  assert.throws(() => scenario().otherwise('x' as never), TypeError);
});
