// The comparison every twin test makes: Warden's observation equals the official SDK's, message for
// message and call for call. Errors are compared by their text; their classes differ by design.
//
// The deliberate differences, each asserted where it shows (docs/compatibility.md says why):
// - errors are WardenErrors with codes, same text (expectErrorTwins; twin-errors.test.ts);
// - a request pending at close says why after the official text (twin-errors.test.ts);
// - the channel stays open for a background subagent when the CLI sends no state events
//   (twin-subagent.test.ts);
// - a missing session in a mutation is a NotFoundError, same text (twin-conversation.test.ts).
import assert from 'node:assert/strict';

import { ErrorResultError, WardenError } from '../../../src/index.js';
import type { TwinResult } from './harness.js';
import { describeError, normaliseMessages } from './normalise.js';

export function assertSameBehaviour(result: TwinResult): void {
  const { official, warden } = result;
  assert.deepEqual(
    normaliseMessages(warden.messages),
    normaliseMessages(official.messages),
    'message sequence',
  );
  assert.deepEqual(warden.calls, official.calls, 'callback calls');
  assert.deepEqual(warden.facts, official.facts, 'facts');
  assert.equal(describeError(warden.error)?.message, describeError(official.error)?.message, 'error text');
}

/**
 * Deliberate difference: where the official SDK throws a plain Error, Warden throws a WardenError with a
 * stable code — and the same text, so applications that match on the text keep working.
 */
export function expectErrorTwins(result: TwinResult, expected: { code: string; text: RegExp }): void {
  const official = result.official.error;
  const warden = result.warden.error;
  assert.ok(official instanceof Error, 'the official SDK throws');
  assert.equal(official.constructor, Error, 'a plain Error');
  assert.ok(WardenError.isWardenError(warden), 'Warden throws a WardenError');
  assert.equal(warden.code, expected.code);
  assert.match(official.message, expected.text);
  assert.equal(warden.message, official.message, 'the same text');
  if (expected.code === 'ERROR_RESULT') assert.ok(warden instanceof ErrorResultError);
}
