// How the server answers a store that failed: a store that cannot write for now (full disk, I/O error,
// lock) is a 503 with its stable code, the reason and Retry-After, and is logged; a damaged store or any
// other store failure stays a 500; the other codes keep their statuses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ConflictError, StoreError, type StoreErrorCode } from '../../src/protocol/errors.js';
import { ApiError, STORE_RETRY_AFTER_SECONDS, errorReply } from '../../src/server/http-error.js';

describe('HTTP mapping of store failures', () => {
  for (const code of ['STORE_FULL', 'STORE_UNAVAILABLE', 'STORE_LOCKED'] as const)
    it(`${code} is a 503 with the code, the reason and Retry-After, and is logged`, () => {
      const error = new StoreError(`Could not commit approval.decided at /data/warden.db: the reason`, {
        code,
      });
      const reply = errorReply(error);
      assert.equal(reply.status, 503);
      assert.deepEqual(reply.body, { error: { code, message: error.message } });
      assert.deepEqual(reply.headers, { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) });
      assert.equal(reply.unexpected, true, 'the operator hears of it');
    });

  for (const code of ['STORE_CORRUPT', 'STORE_FAILED'] satisfies StoreErrorCode[])
    it(`${code} is a 500 that keeps its code: waiting does not mend it`, () => {
      const reply = errorReply(new StoreError('damaged', { code }));
      assert.equal(reply.status, 500);
      assert.equal(reply.body.error.code, code);
      assert.deepEqual(reply.headers, {});
      assert.equal(reply.unexpected, true);
    });

  it('a StoreError without a code is STORE_FAILED; only the passing failures are retryable', () => {
    assert.equal(new StoreError('x').code, 'STORE_FAILED');
    assert.equal(new StoreError('x').retryable, false);
    assert.equal(new StoreError('x', { code: 'STORE_FULL' }).retryable, true);
    assert.equal(new StoreError('x', { code: 'STORE_UNAVAILABLE' }).retryable, true);
    assert.equal(new StoreError('x', { code: 'STORE_LOCKED' }).retryable, false);
    assert.equal(new StoreError('x', { code: 'STORE_CORRUPT' }).retryable, false);
  });

  it('other errors keep their statuses and carry no Retry-After', () => {
    const conflict = errorReply(new ConflictError('settled'));
    assert.equal(conflict.status, 409);
    assert.deepEqual(conflict.headers, {});
    const api = errorReply(new ApiError(404, 'NOT_FOUND', 'no route'));
    assert.equal(api.status, 404);
    assert.deepEqual(api.headers, {});
    const unknown = errorReply(new Error('boom'));
    assert.equal(unknown.status, 500);
    assert.deepEqual(unknown.body, { error: { code: 'INTERNAL', message: 'Internal server error' } });
  });
});
