import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_MAX_FRAME_BYTES,
  resolveTransportOptions,
  spawnTransport,
  trackedTreeCount,
  type ChildTransportOptions,
} from '../../src/transport/index.js';

const valid: ChildTransportOptions = { command: '/bin/true', env: { PATH: '/usr/bin:/bin' } };

describe('spawnTransport options', () => {
  test('defaults', () => {
    const resolved = resolveTransportOptions(valid);
    assert.deepEqual(resolved.args, []);
    assert.equal(resolved.maxFrameBytes, DEFAULT_MAX_FRAME_BYTES);
    assert.equal(resolved.stdinGraceMs, 2000);
    assert.equal(resolved.termGraceMs, 2000);
    assert.equal(resolved.quietAfterExitMs, 50);
  });

  const bad: [string, unknown][] = [
    ['no options', undefined],
    ['empty command', { ...valid, command: '' }],
    ['command not a string', { ...valid, command: 42 }],
    ['args not an array', { ...valid, args: '--verbose' }],
    ['args with a number', { ...valid, args: ['--x', 1] }],
    ['env missing', { command: '/bin/true' }],
    ['env null', { ...valid, env: null }],
    ['env value not a string', { ...valid, env: { PATH: '/bin', N: 1 } }],
    ['empty cwd', { ...valid, cwd: '' }],
    ['maxFrameBytes zero', { ...valid, maxFrameBytes: 0 }],
    ['maxFrameBytes fractional', { ...valid, maxFrameBytes: 1.5 }],
    ['onStderr not a function', { ...valid, onStderr: 'log' }],
    ['onDiagnostic not a function', { ...valid, onDiagnostic: {} }],
    ['negative grace', { ...valid, closeGrace: { stdinMs: -1 } }],
    ['grace past the timer range', { ...valid, closeGrace: { termMs: 2 ** 31 } }],
    ['closeGrace null', { ...valid, closeGrace: null }],
    ['quietAfterExitMs NaN', { ...valid, quietAfterExitMs: Number.NaN }],
  ];
  for (const [name, options] of bad) {
    test(`TypeError at once, before any process starts: ${name}`, () => {
      const tracked = trackedTreeCount();
      assert.throws(() => spawnTransport(options as ChildTransportOptions), TypeError);
      assert.equal(trackedTreeCount(), tracked);
    });
  }
});
