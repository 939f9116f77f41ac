import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageQueue } from '../../src/session/message-queue.js';

describe('MessageQueue', () => {
  it('delivers in order and ends after the buffered items', async () => {
    const queue = new MessageQueue<number>(10);
    await queue.push(1);
    await queue.push(2);
    queue.end();
    assert.deepEqual(await queue.next(), { value: 1, done: false });
    assert.deepEqual(await queue.next(), { value: 2, done: false });
    assert.deepEqual(await queue.next(), { value: undefined, done: true });
  });

  it('hands an item straight to a waiting consumer', async () => {
    const queue = new MessageQueue<string>(1);
    const next = queue.next();
    await queue.push('a');
    assert.deepEqual(await next, { value: 'a', done: false });
  });

  it('makes the producer wait past the limit and loses nothing', async () => {
    const queue = new MessageQueue<number>(2);
    let accepted = 0;
    const producer = (async () => {
      for (let i = 0; i < 10; i++) {
        await queue.push(i);
        accepted++;
      }
      queue.end();
    })();
    await new Promise<void>((resolve) => setImmediate(resolve));
    // Two buffered plus the one whose push is waiting.
    assert.equal(accepted, 2);
    assert.equal(queue.size, 3);
    const received: number[] = [];
    for (;;) {
      const item = await queue.next();
      if (item.done) break;
      received.push(item.value);
    }
    await producer;
    assert.deepEqual(received, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('reports an error after the buffered items, once', async () => {
    const queue = new MessageQueue<number>(5);
    await queue.push(1);
    const failure = new Error('boom');
    queue.end(failure);
    assert.deepEqual(await queue.next(), { value: 1, done: false });
    await assert.rejects(queue.next(), failure);
    assert.deepEqual(await queue.next(), { value: undefined, done: true });
  });

  it('rejects a waiting consumer when ended with an error', async () => {
    const queue = new MessageQueue<number>(5);
    const next = queue.next();
    queue.end(new TypeError('bad'));
    await assert.rejects(next, TypeError);
  });

  it('discard drops buffered items and releases a waiting producer', async () => {
    const queue = new MessageQueue<number>(1);
    await queue.push(1);
    const blocked = queue.push(2);
    queue.discard();
    await blocked;
    assert.deepEqual(await queue.next(), { value: undefined, done: true });
  });
});
