// The helpers behind BENCHMARKS.md: the statistics (medians, nearest-rank percentiles, ratios), the
// time bound every run has, and how failures are summarised.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { bounded, formatBound, TimedOutError } from '../../bench/lib/bounded.js';
import { describeFailures, formatRatio } from '../../bench/lib/figures.js';
import { median, percentile, ratio, summarize } from '../../bench/lib/stats.js';

describe('bench statistics', () => {
  it('summarize gives median, min, max and count, ignoring non-finite values', () => {
    assert.deepEqual(summarize([3, 1, 2]), { median: 2, min: 1, max: 3, n: 3 });
    assert.deepEqual(summarize([4, 1, 3, 2, Number.NaN]), { median: 2.5, min: 1, max: 4, n: 4 });
    assert.equal(summarize([]), undefined);
    assert.equal(summarize([Number.NaN]), undefined);
  });

  it('median does not reorder its input', () => {
    const values = [5, 1, 4];
    assert.equal(median(values), 4);
    assert.deepEqual(values, [5, 1, 4]);
    assert.throws(() => median([]), RangeError);
  });

  it('percentile is nearest-rank: always one of the values', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    assert.equal(percentile(hundred, 50), 50);
    assert.equal(percentile(hundred, 99), 99);
    assert.equal(percentile(hundred, 100), 100);
    assert.equal(percentile([7], 99), 7);
    assert.equal(percentile([1, 2], 50), 1);
    assert.throws(() => percentile([], 50), RangeError);
    assert.throws(() => percentile([1], 0), RangeError);
    assert.throws(() => percentile([1], 101), RangeError);
  });

  it('ratio is undefined when a side is missing, negative or zero', () => {
    assert.equal(ratio(1, 4), 0.25);
    assert.equal(ratio(0, 4), 0);
    assert.equal(ratio(undefined, 4), undefined);
    assert.equal(ratio(1, undefined), undefined);
    assert.equal(ratio(1, 0), undefined);
    assert.equal(ratio(-1, 4), undefined);
    assert.equal(ratio(Number.NaN, 4), undefined);
  });
});

describe('bench run bound', () => {
  it('passes a result through and leaves the signal alone', async () => {
    let seen: AbortSignal | undefined;
    const value = await bounded(1000, (signal) => {
      seen = signal;
      return Promise.resolve(42);
    });
    assert.equal(value, 42);
    assert.equal(seen?.aborted, false);
  });

  it('turns a hang into a TimedOutError and aborts the task', async () => {
    let seen: AbortSignal | undefined;
    const hang = bounded(20, (signal) => {
      seen = signal;
      return new Promise<never>(() => undefined);
    });
    await assert.rejects(hang, (error: unknown) => {
      assert.ok(error instanceof TimedOutError);
      assert.equal(error.message, 'timed out after 20 ms');
      return true;
    });
    assert.equal(seen?.aborted, true);
  });

  it('reports the task failure as it is', async () => {
    await assert.rejects(
      bounded(1000, () => Promise.reject(new Error('boom'))),
      /boom/,
    );
  });

  it('formats bounds and failure lists for the report', () => {
    assert.equal(formatBound(10_000), '10 s');
    assert.equal(formatBound(1500), '1.5 s');
    assert.equal(
      describeFailures(['timed out after 10 s', 'x', 'timed out after 10 s']),
      '2 × timed out after 10 s; 1 × x',
    );
    assert.equal(formatRatio(undefined), 'n/a');
    assert.equal(formatRatio(0.5), '0.50');
    assert.equal(formatRatio(0.004), '0.0040');
  });
});
