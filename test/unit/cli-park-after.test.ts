// `warden serve --park-after D`: durations with their unit, 0/never for never; anything else a usage error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseCommand, UsageError } from '../../src/cli/args/index.js';
import { MAX_DURATION_MS, parseDuration } from '../../src/cli/duration.js';

describe('--park-after', () => {
  it('reads durations with their unit, and 0 or never as never', () => {
    const cases: [string, number][] = [
      ['500ms', 500],
      ['30s', 30_000],
      ['10m', 600_000],
      ['2h', 7_200_000],
      ['0', 0],
      ['never', 0],
      [`${MAX_DURATION_MS}ms`, MAX_DURATION_MS],
    ];
    for (const [text, ms] of cases) assert.equal(parseDuration(text), ms, text);
    for (const text of ['10', '1.5h', '-5m', '10 minutes', '', '0ms', '1000h', 'm'])
      assert.equal(parseDuration(text), undefined, text);
  });

  it('goes to serve as parkAfterMs; a bad value is a usage error', () => {
    const serve = parseCommand(['serve', '--park-after', '10m']);
    assert.equal(serve.name === 'serve' && serve.parkAfterMs, 600_000);
    const never = parseCommand(['serve', '--park-after', 'never']);
    assert.equal(never.name === 'serve' && never.parkAfterMs, 0);
    const plain = parseCommand(['serve']);
    assert.equal(plain.name === 'serve' && plain.parkAfterMs, undefined);
    assert.throws(() => parseCommand(['serve', '--park-after', '10']), UsageError);
    assert.throws(() => parseCommand(['run', 'hi', '--park-after', '10m']), UsageError);
  });
});
