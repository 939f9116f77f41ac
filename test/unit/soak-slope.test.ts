// The soak's growth fit: the least-squares slope per hour, and the per-window floors that keep the load's
// scatter out of the fit of descriptor and handle counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fitPerHour, windowFloors } from '../reliability/soak/slope.js';

const minute = 60_000;

test('a line gets its own slope per hour; a flat series gets 0', () => {
  const rising = Array.from({ length: 10 }, (_, i) => ({ t: i * minute, value: 100 + i * 0.5 }));
  assert.equal(fitPerHour(rising).perHour, 30);
  assert.equal(fitPerHour(rising.map((p) => ({ ...p, value: 7 }))).perHour, 0);
  assert.deepEqual(fitPerHour([{ t: 0, value: 3 }]), { perHour: 0, samples: 1, first: 3, last: 3 });
});

test('floors ignore spikes above a flat base and follow a rising one', () => {
  const spiky = Array.from({ length: 60 }, (_, i) => ({
    t: i * 10_000,
    value: 30 + (i % 6 === 3 ? 100 : i % 4),
  }));
  assert.equal(fitPerHour(windowFloors(spiky, 6)).perHour, 0);
  assert.ok(fitPerHour(spiky).perHour !== 0, 'the raw fit is moved by the spikes');
  const leaking = spiky.map((p) => ({ t: p.t, value: p.value + p.t / minute }));
  // One per minute is 60 per hour; where in its window a floor falls moves the fit a little.
  assert.ok(Math.abs(fitPerHour(windowFloors(leaking, 6)).perHour - 60) < 3);
});
