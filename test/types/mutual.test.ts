// The drop-in promise for values, not only for code: every type exported by both the official package and
// Warden, from the root and from `./sdk-tools`, is assignable both ways (mutual.ts writes and compiles the
// check) except the short list in mutual-exceptions.ts, each with its reason and the direction that fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { mutualMismatches } from './mutual.js';
import { MUTUAL_EXCEPTIONS } from './mutual-exceptions.js';

describe('types shared with the official package', { timeout: 180_000 }, () => {
  it('are assignable both ways, but for the documented exceptions', async () => {
    const { checked, mismatches } = await mutualMismatches();
    assert.ok(checked > 200, `only ${checked} types were compared`);
    const found = Object.fromEntries([...mismatches].sort(([a], [b]) => a.localeCompare(b)));
    const expected = Object.fromEntries(
      Object.entries(MUTUAL_EXCEPTIONS)
        .map(([name, { direction }]) => [name, direction] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    assert.deepEqual(
      found,
      expected,
      'fix the new mismatch, or list it with its reason in mutual-exceptions.ts',
    );
  });
});
