// A thread's policy is compiled once for each state of its rules, not for every request: the same inputs
// give back the same object (what runner-manifests.ts works out is kept with it), and any change of mode,
// rules, folder or sandbox state gives a policy of its own that decides as a fresh compile does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { compilePolicy, compiledPolicyFor, decidingStep } from '../../src/policy/index.js';

const rules = { allow: ['Bash(npm test)'], deny: ['Bash(rm:*)'] };

describe('compiledPolicyFor', () => {
  it('gives the same policy for the same mode, rules, folder and sandbox state', () => {
    const first = compiledPolicyFor('supervised', rules, '/repo');
    assert.equal(
      compiledPolicyFor('supervised', { allow: [...rules.allow], deny: [...rules.deny] }, '/repo'),
      first,
    );
    assert.deepEqual(first, compilePolicy('supervised', rules, '/repo'));
  });

  it('gives another policy when any of them changes', () => {
    const base = compiledPolicyFor('supervised', rules, '/repo');
    const others = [
      compiledPolicyFor('auto-edits', rules, '/repo'),
      compiledPolicyFor('supervised', { allow: [...rules.allow, 'Bash(ls:*)'], deny: rules.deny }, '/repo'),
      compiledPolicyFor('supervised', { allow: rules.allow, deny: [] }, '/repo'),
      compiledPolicyFor('supervised', rules, '/other'),
      compiledPolicyFor('supervised', rules, '/repo', true),
    ];
    for (const other of others) assert.notEqual(other, base);
    // A rule moved from allow to deny is another policy, though the same strings are listed.
    const moved = compiledPolicyFor(
      'supervised',
      { allow: [], deny: ['Bash(npm test)', 'Bash(rm:*)'] },
      '/repo',
    );
    assert.equal(decidingStep(moved, 'Bash', { command: 'npm test' }).verdict.behavior, 'deny');
    assert.equal(decidingStep(base, 'Bash', { command: 'npm test' }).verdict.behavior, 'allow');
  });
});
