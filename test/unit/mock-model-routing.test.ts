// How the mock classifies requests (main, subagent, side) and that concurrent main and subagent requests
// get their own replies whatever the order in which they arrive.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestContext } from 'node:test';

import { startMockModel } from '../../src/testing/index.js';
import type { MockScript, RequestContext } from '../../src/testing/index.js';
import { cliRequestBody, parseSse, post, reassemble } from '../e2e/helpers/messages-api.js';
import type { CliRequestOptions } from '../e2e/helpers/messages-api.js';

async function mockFor(t: TestContext, script: MockScript) {
  const mock = await startMockModel({ script });
  t.after(() => mock.close());
  return mock;
}

async function ask(
  url: string,
  options: CliRequestOptions,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await post(url, '/v1/messages?beta=true', cliRequestBody(options), headers);
  assert.equal(res.status, 200);
  return reassemble(parseSse(await res.text())).text;
}

void test('the context describes the conversation the request carries', async (t) => {
  const seen: RequestContext[] = [];
  const mock = await mockFor(t, (ctx) => {
    seen.push(ctx);
    return null;
  });
  await ask(mock.url, { prompt: '[[main-1]] please [[not-this]]', results: ['out-1', 'out-2'] });
  await ask(mock.url, {
    prompt: '[[bg]] start',
    results: ['launched'],
    followUp: '<task-notification>done</task-notification>',
  });
  const [first, second] = seen;
  assert.ok(first && second);
  assert.deepEqual(
    {
      kind: first.kind,
      marker: first.marker,
      turnMarker: first.turnMarker,
      rounds: first.rounds,
      turnRounds: first.turnRounds,
      turns: first.turns,
      step: first.step,
      isTaskNotification: first.isTaskNotification,
      toolResults: first.toolResults,
      lastUserText: first.lastUserText,
      toolNames: first.toolNames,
      stream: first.stream,
    },
    {
      kind: 'main',
      marker: 'main-1',
      turnMarker: 'main-1',
      rounds: 2,
      turnRounds: 2,
      turns: 1,
      step: 2,
      isTaskNotification: false,
      toolResults: [{ toolUseId: 'toolu_test_2', text: 'out-2', isError: false }],
      lastUserText: '',
      toolNames: ['Agent', 'Bash', 'Read'],
      stream: true,
    },
  );
  assert.match(first.firstUserText, /\[\[main-1\]\] please/);
  assert.match(first.systemText, /cc_entrypoint/);
  assert.equal(first.n, 1);
  assert.equal(first.body.model, 'claude-opus-5-5');
  assert.deepEqual(
    [
      second.marker,
      second.turnMarker,
      second.rounds,
      second.turnRounds,
      second.turns,
      second.isTaskNotification,
    ],
    ['bg', undefined, 1, 0, 2, true],
  );
  assert.match(second.lastUserText, /<task-notification>/);
});

void test('subagents are recognised by the agent-id header or the billing line, never by their tools', async (t) => {
  const mock = await mockFor(t, () => null);
  await ask(mock.url, { prompt: '[[m]]', tools: ['Bash'] });
  await ask(mock.url, { prompt: '[[s1]]' }, { 'x-claude-code-agent-id': 'agent-1' });
  await ask(
    mock.url,
    { prompt: '[[s2]]' },
    { 'x-claude-code-agent-id': 'agent-2', 'x-claude-code-parent-agent-id': 'agent-1' },
  );
  await ask(mock.url, { prompt: '[[s3]]', subagent: true, tools: ['Bash'] });
  assert.deepEqual(
    mock.requests.map((r) => [r.marker, r.kind, r.agentId, r.parentAgentId]),
    [
      ['m', 'main', undefined, undefined],
      ['s1', 'subagent', 'agent-1', undefined],
      ['s2', 'subagent', 'agent-2', 'agent-1'],
      ['s3', 'subagent', undefined, undefined],
    ],
  );
});

void test('side requests are recognised by content and get fitting defaults', async (t) => {
  const mock = await mockFor(t, () => null);
  const suggestion = await ask(mock.url, {
    prompt: '[[x]] hi',
    followUp: '[SUGGESTION MODE: suggest what the user types next]',
  });
  const progress = await ask(
    mock.url,
    { prompt: '[[sub]] work', followUp: 'Describe your most recent action in 3-5 words' },
    { 'x-claude-code-agent-id': 'agent-9' },
  );
  const titleBody = {
    ...cliRequestBody({ prompt: 'name it' }),
    tools: [],
    system: 'You are naming a coding session.',
  };
  const title = reassemble(parseSse(await (await post(mock.url, '/v1/messages', titleBody)).text())).text;
  const otherBody = { ...cliRequestBody({ prompt: 'anything' }), tools: [] };
  const other = reassemble(parseSse(await (await post(mock.url, '/v1/messages', otherBody)).text())).text;

  assert.deepEqual(
    mock.requests.map((r) => [r.kind, r.sideKind]),
    [
      ['side', 'suggestion'],
      ['side', 'progress_summary'],
      ['side', 'title'],
      ['side', 'other'],
    ],
  );
  assert.equal(suggestion, 'continue');
  assert.equal(progress, 'Working on it');
  assert.deepEqual(JSON.parse(title), { title: 'Mock session' });
  assert.equal(other, 'ok');
});

/** Replies by conversation; the main reply can be held until a test-controlled promise settles. */
function routingScript(holdMain?: Promise<unknown>): MockScript {
  return async (ctx) => {
    if (ctx.kind === 'main' && ctx.marker === 'root') {
      await holdMain;
      return { content: [{ type: 'text', text: `main round ${ctx.rounds}` }] };
    }
    if (ctx.kind === 'subagent' && ctx.marker === 'sub') {
      return { content: [{ type: 'text', text: `sub ${ctx.agentId ?? '?'} round ${ctx.rounds}` }] };
    }
    return null;
  };
}

const MAIN: CliRequestOptions = { prompt: '[[root]] launch', results: ['Async agent launched'] };
const SUB: CliRequestOptions = { prompt: '[[sub]] work' };
const SUB_HEADERS = { 'x-claude-code-agent-id': 'agent-7' };

void test('main then subagent, and subagent then main, get the same replies', async (t) => {
  const mock = await mockFor(t, routingScript());
  const mainFirst = [await ask(mock.url, MAIN), await ask(mock.url, SUB, SUB_HEADERS)];
  const subFirst = [await ask(mock.url, SUB, SUB_HEADERS), await ask(mock.url, MAIN)];
  assert.deepEqual(mainFirst, ['main round 1', 'sub agent-7 round 0']);
  assert.deepEqual(subFirst, ['sub agent-7 round 0', 'main round 1']);
});

void test('racing main and subagent requests each get their own reply', async (t) => {
  const mock = await mockFor(t, routingScript());
  const races = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0
      ? Promise.all([ask(mock.url, MAIN), ask(mock.url, SUB, SUB_HEADERS)])
      : Promise.all([ask(mock.url, SUB, SUB_HEADERS), ask(mock.url, MAIN)]).then(([sub, main]) => [
          main,
          sub,
        ]),
  );
  for (const pair of await Promise.all(races))
    assert.deepEqual(pair, ['main round 1', 'sub agent-7 round 0']);
  assert.equal(mock.requests.length, 40);
});

void test('a held main reply does not block the subagent request that arrives after it', async (t) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const mock = await mockFor(t, routingScript(held));
  const main = ask(mock.url, MAIN);
  await mock.waitForRequest((r) => r.kind === 'main');
  // If the mock answered one request at a time, this would wait for the held main reply forever.
  assert.equal(await ask(mock.url, SUB, SUB_HEADERS), 'sub agent-7 round 0');
  release();
  assert.equal(await main, 'main round 1');
});
