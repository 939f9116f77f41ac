// Letting go of a detached CLI must not leave half a line in its input pipe: the CLI exits on a malformed
// line, so the next host would lose the agent at its first write. A line longer than the pipe can hold
// goes out in several writes; detach() lets the one under way finish before the host lets go.
import assert from 'node:assert/strict';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';

import { removeDetachedFiles, spawnDetached } from '../../src/transport/detached-child.js';
import { DetachedTransport } from '../../src/transport/detached-transport.js';
import { signalGroup } from '../../src/transport/process-tree.js';
import { assertNoProcesses } from '../integration/transport-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'warden-detach-write-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Reads what the pipe holds until a newline arrives or `ms` pass without one; the bytes read. */
async function drainUntilNewline(path: string, ms: number): Promise<Buffer> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  const deadline = performance.now() + ms;
  try {
    while (performance.now() < deadline) {
      let read = 0;
      try {
        read = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      if (read > 0) {
        chunks.push(Buffer.from(buffer.subarray(0, read)));
        if (buffer.subarray(0, read).includes(0x0a)) break;
      } else await delay(10);
    }
  } finally {
    closeSync(fd);
  }
  return Buffer.concat(chunks);
}

test('detach() lets a line longer than the pipe reach the CLI whole', { timeout: 30_000 }, async () => {
  // A CLI that is not reading at the moment: the pipe fills after 64 KiB.
  const child = await spawnDetached({
    command: 'sleep',
    args: ['30'],
    cwd: undefined,
    env: { PATH: process.env.PATH },
    marker: 'detach-write',
    dir: join(root, 'cli'),
  });
  const identity = { pid: child.pid, startTicks: child.startTicks };
  try {
    const transport = new DetachedTransport({
      paths: child.paths,
      identity,
      marker: 'detach-write',
      exited: child.exited,
    });
    const text = 'x'.repeat(200 * 1024);
    const written = transport.send({ type: 'user', text });
    written.catch(() => undefined);
    const detached = transport.detach();

    // The CLI starts reading again (here: the test reads for it).
    const received = await drainUntilNewline(child.paths.input, 5_000);
    const line = received.toString('utf8');
    assert.ok(line.endsWith('\n'), `the CLI received ${received.length} bytes without the end of the line`);
    assert.deepEqual(JSON.parse(line), { type: 'user', text });
    await detached;
    await written;
  } finally {
    signalGroup(child.pid, 'SIGKILL');
    removeDetachedFiles(child.paths);
  }
  await assertNoProcesses([child.pid], { deadNow: false });
});
