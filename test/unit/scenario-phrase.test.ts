// Tracks chosen by a phrase of the prompt instead of a `[[marker]]`: for scripts whose prompts a person
// reads (the demo). A marker still wins, phrases are tried in order, the CLI-started turn after a task
// notification belongs to the conversation whose first prompt had the phrase, and a bad phrase throws.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { ctx } from './helpers/request-context.js';

const text = (reply: unknown): unknown =>
  (reply as { content?: { text?: string }[] } | null)?.content?.[0]?.text ?? null;

void test('a phrase in the prompt picks the track; anything else gets the default', async () => {
  const script = scenario()
    .on({ phrase: 'which machine' })
    .thenAnswer('phrase track')
    .on()
    .thenAnswer('any other')
    .build();
  const prompt = 'Find out which machine this is.';
  assert.equal(text(await script(ctx({ turnText: prompt, firstUserText: prompt }))), 'phrase track');
  assert.equal(text(await script(ctx({ turnText: 'hello' }))), 'any other');
});

void test('a marker is matched before a phrase, and phrases in the order their tracks were made', async () => {
  const script = scenario()
    .on({ phrase: 'report' })
    .thenAnswer('first phrase')
    .on({ phrase: 'report back' })
    .thenAnswer('second phrase')
    .on('m')
    .thenAnswer('marker')
    .build();
  assert.equal(text(await script(ctx({ turnText: 'please report back' }))), 'first phrase');
  assert.equal(
    text(await script(ctx({ turnText: '[[m]] please report back', turnMarker: 'm', marker: 'm' }))),
    'marker',
  );
});

void test('subagents and CLI-started turns are matched by the prompt that began them', async () => {
  const script = scenario()
    .on({ phrase: 'in the background' })
    .launchBackgroundAgent({ prompt: 'Read the host name, then report.', description: 'host' })
    .thenAnswer('launched')
    .onTaskNotification()
    .thenAnswer('it reported')
    .subagent({ phrase: 'Read the host name' })
    .thenReport('the host is h1')
    .build();
  const root = 'Look at it in the background.';
  assert.equal(
    text(
      await script(
        ctx({
          isTaskNotification: true,
          firstUserText: root,
          turnText: '<task-notification>…</task-notification>',
        }),
      ),
    ),
    'it reported',
  );
  const subPrompt = 'Read the host name, then report.';
  assert.equal(
    text(
      await script(ctx({ kind: 'subagent', agentId: 'a1', turnText: subPrompt, firstUserText: subPrompt })),
    ),
    'the host is h1',
  );
  // A main turn with the subagent's phrase is not the subagent's.
  assert.equal(await script(ctx({ turnText: subPrompt })), null);
});

void test('a phrase must be a non-empty string, and a track is defined once', () => {
  assert.throws(() => scenario().on({ phrase: ' ' }), TypeError);
  assert.throws(() => scenario().subagent({ phrase: 3 as unknown as string }), TypeError);
  assert.throws(
    () => scenario().on({ phrase: 'x' }).thenAnswer('a').on({ phrase: 'x' }),
    /on\(\{ phrase: 'x' \}\) is already defined/,
  );
});
