import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProcessExitError } from '../../src/protocol/errors.js';
import { FrameQueue } from '../../src/transport/frame-queue.js';
import { StderrTail } from '../../src/transport/stderr-tail.js';

function queue() {
  const calls: string[] = [];
  const instance = new FrameQueue({
    onEmpty: () => calls.push('empty'),
    onWaiting: () => calls.push('waiting'),
    onReturn: () => calls.push('return'),
  });
  return { instance, calls };
}

describe('FrameQueue', () => {
  test('queued frames come before the end, and the end error is thrown once', async () => {
    const { instance, calls } = queue();
    instance.push([{ n: 0 }, { n: 1 }], 20);
    instance.push([{ n: 2 }], 10);
    assert.equal(instance.bufferedBytes, 30);
    const error = new ProcessExitError(3, null, 'boom');
    instance.finish(error);
    assert.deepEqual(await instance.next(), { done: false, value: { n: 0 } });
    assert.deepEqual(await instance.next(), { done: false, value: { n: 1 } });
    assert.equal(instance.bufferedBytes, 10);
    assert.deepEqual(await instance.next(), { done: false, value: { n: 2 } });
    assert.deepEqual(calls, ['empty']);
    await assert.rejects(instance.next(), (thrown) => thrown === error);
    assert.deepEqual(await instance.next(), { done: true, value: undefined });
  });

  test('a waiting consumer is served directly and told when nothing is queued', async () => {
    const { instance, calls } = queue();
    const waiting = instance.next();
    assert.equal(instance.isWaiting, true);
    assert.deepEqual(calls, ['waiting']);
    instance.push([{ n: 0 }, { n: 1 }], 8);
    assert.deepEqual(await waiting, { done: false, value: { n: 0 } });
    assert.equal(instance.isEmpty, false);
    assert.deepEqual(await instance.next(), { done: false, value: { n: 1 } });
    const end = instance.next();
    instance.finish();
    assert.deepEqual(await end, { done: true, value: undefined });
  });

  test('abort drops queued frames and ends a waiting consumer without an error', async () => {
    const { instance } = queue();
    instance.push([{ n: 0 }], 4);
    instance.abort();
    assert.equal(instance.bufferedBytes, 0);
    assert.deepEqual(await instance.next(), { done: true, value: undefined });
    // The first decision wins: a later finish with an error changes nothing.
    instance.finish(new Error('late'));
    assert.deepEqual(await instance.next(), { done: true, value: undefined });
  });

  test('return() ends iteration and tells the owner', async () => {
    const { instance, calls } = queue();
    instance.push([{ n: 0 }, { n: 1 }], 8);
    for await (const frame of instance) {
      assert.deepEqual(frame, { n: 0 });
      break;
    }
    assert.deepEqual(calls, ['return']);
    assert.deepEqual(await instance.next(), { done: true, value: undefined });

    const other = queue();
    const waiting = other.instance.next();
    assert.deepEqual(await other.instance.return(), { done: true, value: undefined });
    assert.deepEqual(await waiting, { done: true, value: undefined });
    assert.deepEqual(other.calls, ['waiting', 'return']);
  });
});

describe('StderrTail', () => {
  test('keeps the last characters and characters split across chunks', () => {
    const tail = new StderrTail(10);
    const euro = Buffer.from('€');
    assert.equal(tail.push(Buffer.from('0123456789abc')), '0123456789abc');
    assert.equal(tail.push(euro.subarray(0, 1)), '');
    assert.equal(tail.push(euro.subarray(1)), '€');
    assert.equal(tail.text, '3456789abc€'.slice(-10));
    tail.push(Buffer.from('x'.repeat(50)));
    assert.equal(tail.text, 'x'.repeat(10));
  });
});
