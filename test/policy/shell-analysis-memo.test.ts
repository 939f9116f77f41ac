// A command's analysis is worked out once and shared by every step that asks (the policy, risks,
// always-allow rules): the same text gives back the same analysis, frozen, so no caller can change what the
// next one reads; a command too long to keep is analysed afresh each time, with the same result.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { analyzeShell } from '../../src/policy/shell-commands.js';

describe('analyzeShell remembers', () => {
  it('gives the same frozen analysis for the same command', () => {
    const first = analyzeShell('sudo rm -rf build > log.txt');
    assert.equal(analyzeShell('sudo rm -rf build > log.txt'), first);
    assert.deepEqual(first.commands[1]?.words, ['rm', '-rf', 'build']);
    assert.deepEqual(first.writes, ['build', 'log.txt']);
    assert.throws(() => (first.commands[0]!.words as string[]).push('/'), TypeError);
    assert.throws(() => (first.writes as string[]).pop(), TypeError);
    assert.notEqual(analyzeShell('sudo rm -rf build > other.txt'), first);
  });

  it('analyses a long command afresh each time, alike', () => {
    const long = `echo ${'x'.repeat(5000)}`;
    const first = analyzeShell(long);
    const second = analyzeShell(long);
    assert.notEqual(second, first);
    assert.deepEqual(second, first);
  });
});
