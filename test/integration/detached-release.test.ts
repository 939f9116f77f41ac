// Releasing a detached CLI's processed spool: a host that commits after every frame of a burst frees the
// disk in a few steps, at most one per 100 ms (each step is a `fallocate` process the host forks), and the
// release of the last offset settles with the space before it freed.
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { spawnDetached } from '../../src/transport/detached-child.js';
import { DetachedTransport, spoolOffsetOf } from '../../src/transport/detached-transport.js';
import { assertNoProcesses } from './transport-helpers.js';

const HANG = { timeout: 30_000 };
const ECHO = fileURLToPath(new URL('../fixtures/echo-lines.mjs', import.meta.url));
const MiB = 1024 * 1024;
const root = mkdtempSync(join(tmpdir(), 'warden-release-'));
after(() => rmSync(root, { recursive: true, force: true }));

/**
 * Puts first on this process's PATH a `fallocate` that logs a line each time it runs and then
 * runs the real one; returns the log's path.
 */
function logFallocate(): string {
  const real = (process.env.PATH ?? '')
    .split(':')
    .map((dir) => join(dir, 'fallocate'))
    .find((path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true);
  assert.ok(real !== undefined, 'fallocate is installed');
  const bin = join(root, 'bin');
  const log = join(root, 'fallocate.log');
  mkdirSync(bin);
  writeFileSync(join(bin, 'fallocate'), `#!/bin/sh\necho step >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'fallocate'), 0o755);
  writeFileSync(log, '');
  process.env.PATH = `${bin}:${process.env.PATH ?? ''}`;
  return log;
}

describe('DetachedTransport.releaseBefore', () => {
  test(
    'a burst is released in at most one step per 100 ms; the last release frees the space',
    HANG,
    async () => {
      const log = logFallocate();
      const child = await spawnDetached({
        command: process.execPath,
        args: [ECHO],
        cwd: undefined,
        env: { PATH: process.env.PATH },
        marker: 'release-test',
        dir: join(root, 'cli'),
      });
      const transport = new DetachedTransport({
        paths: child.paths,
        identity: { pid: child.pid, startTicks: child.startTicks },
        marker: 'release-test',
        exited: child.exited,
        pollMs: 20,
      });
      try {
        const line = `${JSON.stringify({ type: 'assistant', text: 'x'.repeat(400) })}\n`;
        const lines = (32 * MiB) / line.length;
        let read = 0;
        let last: Promise<unknown> = Promise.resolve();
        let began = Number.NaN;
        for await (const frame of transport.frames()) {
          // The CLI's own first line; then the burst, as if it had written it.
          if (frame['ready'] !== undefined) {
            appendFileSync(child.paths.output, line.repeat(Math.ceil(lines)));
            began = performance.now();
          } else read += 1;
          // As the supervisor does after each commit.
          last = transport.releaseBefore(spoolOffsetOf(frame) ?? 0);
          if (read === Math.ceil(lines)) break;
        }
        await last;
        const elapsedMs = performance.now() - began;
        const steps = readFileSync(log, 'utf8').trim().split('\n').length;
        // One step per MiB would be 32; at most one per 100 ms, whatever this machine’s speed.
        assert.ok(steps >= 1, 'some processed spool was released');
        assert.ok(
          steps <= 1 + Math.floor(elapsedMs / 100),
          `${steps} release steps in ${elapsedMs.toFixed(0)} ms`,
        );
        const { size, blocks } = statSync(child.paths.output);
        assert.ok(size > 32 * MiB, 'the spool keeps its length');
        assert.ok(blocks * 512 <= MiB + 4096, `${blocks * 512} bytes still on disk`);
      } finally {
        await transport.close();
      }
      await assertNoProcesses([child.pid]);
    },
  );
});
