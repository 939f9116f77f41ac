// LazyAbort: the signal exists only once asked for, and tells the same story either way round.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { LazyAbort } from '../../src/control/lazy-abort.js';

describe('LazyAbort', () => {
  it('a signal asked for after the abort is already aborted, with the reason', () => {
    const lazy = new LazyAbort();
    const reason = new Error('withdrawn');
    lazy.abort(reason);
    assert.equal(lazy.aborted, true);
    assert.equal(lazy.signal.aborted, true);
    assert.equal(lazy.signal.reason, reason);
  });

  it('a signal asked for before the abort fires its abort event once, and keeps the first reason', () => {
    const lazy = new LazyAbort();
    const { signal } = lazy;
    assert.equal(signal.aborted, false);
    let events = 0;
    signal.addEventListener('abort', () => events++);
    const first = new Error('first');
    lazy.abort(first);
    lazy.abort(new Error('second'));
    assert.equal(events, 1);
    assert.equal(signal.reason, first);
    assert.equal(lazy.signal, signal, 'the same signal every time');
  });

  it('is not aborted until told', () => {
    const lazy = new LazyAbort();
    assert.equal(lazy.aborted, false);
    assert.equal(lazy.signal.aborted, false);
  });
});
