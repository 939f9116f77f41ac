// API errors scripted at a step: the CLI retries an overloaded (529) reply and recovers; a 400 ends the
// turn with an error result. The second prompt carries its own marker, so one CLI session runs both turns.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { assertCleanEnd } from './helpers/assertions.js';
import { startOfflineCli } from './helpers/offline-cli.js';

void test(
  'an overloaded reply is retried; a bad request ends the turn with an error result',
  { timeout: 90_000 },
  async (t) => {
    const script = scenario()
      .on('flaky')
      .failFirst(1, 529, 'mock: overloaded')
      .thenAnswer('recovered')
      .on('broken')
      .failWith(400, 'mock: invalid request')
      .build();
    const { cli, mock, scratch } = await startOfflineCli(t, { script });

    await cli.initialize();
    await cli.sendUserText('[[flaky]] first turn');
    const retry = await cli.waitFor((f) => f.type === 'system' && f.subtype === 'api_retry');
    assert.equal(retry.error_status, 529);
    assert.equal(retry.attempt, 1);
    const first = await cli.waitFor((f) => f.type === 'result');
    assert.equal(first.is_error, false);
    assert.equal(first.result, 'recovered');
    assert.deepEqual(
      mock.requests.map((r) => r.status),
      [529, 200],
    );

    await cli.sendUserText('[[broken]] second turn');
    const second = await cli.waitFor((f) => f.type === 'result', cli.frames.indexOf(first) + 1);
    assert.equal(second.is_error, true);
    assert.equal(second.api_error_status, 400);
    assert.match(second.result, /mock: invalid request/);
    const broken = mock.requests.filter((r) => r.turnMarker === 'broken');
    assert.ok(broken.length >= 1);
    assert.ok(broken.every((r) => r.status === 400 && r.marker === 'flaky'));

    // The CLI's exit code follows its last result once input ends.
    await assertCleanEnd(cli, scratch, 1);
  },
);
