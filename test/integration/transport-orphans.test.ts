// Descendants: a grandchild that keeps stdout open after the CLI exits must not keep the stream open, and
// neither it nor a grandchild that escaped the process group (setsid) may outlive the transport, or the
// host.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ProcessExitError } from '../../src/protocol/errors.js';
import type { ChildTransport, TransportDiagnostic } from '../../src/transport/index.js';
import {
  assertContiguous,
  assertNoProcesses,
  drain,
  startFake,
  within,
  type Frame,
} from './transport-helpers.js';

const HANG = { timeout: 30_000 };
const HOST_SCRIPT = fileURLToPath(new URL('./transport-host-exit-fixture.ts', import.meta.url));

async function grandchildPid(frames: AsyncIterator<Frame>): Promise<number> {
  const first = await frames.next();
  assert.equal(first.done, false);
  assert.equal(first.value?.['type'], 'grandchild');
  const pid = first.value?.['pid'];
  assert.ok(typeof pid === 'number');
  return pid;
}

function killedPids(diagnostics: readonly TransportDiagnostic[]): number[] {
  return diagnostics.flatMap((d) => (d.kind === 'leftovers_killed' ? [...d.pids] : []));
}

/** Time from the CLI's exit to the end of frames(), and how it ended. */
async function drainTimed(transport: ChildTransport) {
  let exitedAt = 0;
  void transport.exited.then(() => (exitedAt = performance.now()));
  const drained = await drain(transport);
  return { ...drained, afterExitMs: performance.now() - exitedAt };
}

describe('descendants of the CLI', { concurrency: true }, () => {
  test(
    'orphan holding stdout, exit 0: the stream ends cleanly and promptly; grandchild killed',
    HANG,
    async (t) => {
      const { transport, diagnostics } = await startFake(t, 'orphan', { FAKE_CLI_EXIT_CODE: '0' });
      const { frames, error, afterExitMs } = await within(5000, drainTimed(transport), 'the stream');
      assert.equal(error, undefined);
      assertContiguous(frames, 4);
      const pid = frames[0]?.['pid'] as number;
      // Only catches a hang: the figure itself is measured by bench/orphan-exit.ts.
      assert.ok(afterExitMs < 2000, `ended ${afterExitMs} ms after exit`);
      assert.deepEqual(killedPids(diagnostics), [pid]);
      await assertNoProcesses([transport.pid, pid]);
    },
  );

  test(
    'orphan holding stdout, exit 1: ProcessExitError with code 1 promptly; grandchild killed',
    HANG,
    async (t) => {
      const { transport, diagnostics } = await startFake(t, 'orphan', { FAKE_CLI_EXIT_CODE: '1' });
      const { frames, error, afterExitMs } = await within(5000, drainTimed(transport), 'the stream');
      assert.ok(error instanceof ProcessExitError);
      assert.equal(error.code, 'PROCESS_EXITED');
      assert.equal(error.exitCode, 1);
      assert.equal(error.signal, null);
      assertContiguous(frames, 4);
      const pid = frames[0]?.['pid'] as number;
      assert.ok(afterExitMs < 2000, `ended ${afterExitMs} ms after exit`);
      assert.deepEqual(killedPids(diagnostics), [pid]);
      await assertNoProcesses([transport.pid, pid]);
    },
  );

  test('setsid-grandchild: the escaper is killed when the CLI exits on its own', HANG, async (t) => {
    const { transport, diagnostics } = await startFake(t, 'setsid-grandchild');
    const frames = transport.frames();
    const pid = await grandchildPid(frames);
    transport.endInput();
    assert.deepEqual(await frames.next(), { done: true, value: undefined });
    assert.deepEqual(await transport.exited, { exitCode: 0, signal: null });
    assert.deepEqual(killedPids(diagnostics), [pid]);
    await assertNoProcesses([transport.pid, pid]);
  });

  test('setsid-grandchild: close() kills the escaper too', HANG, async (t) => {
    const { transport, diagnostics } = await startFake(t, 'setsid-grandchild');
    const pid = await grandchildPid(transport.frames());
    await within(10_000, transport.close(), 'close()');
    assert.deepEqual(await transport.exited, { exitCode: 0, signal: null });
    assert.deepEqual(killedPids(diagnostics), [pid]);
    await assertNoProcesses([transport.pid, pid]);
  });

  test('a host that exits without closing kills the CLI and its escaped grandchild', HANG, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', HOST_SCRIPT], {
      timeout: 20_000,
    });
    const { pids } = JSON.parse(stdout) as { pids: number[] };
    assert.equal(pids.length, 3);
    // The hook sends SIGKILL and the host exits at once; delivery may lag the host's exit by a moment.
    await assertNoProcesses(pids, { deadNow: false });
  });
});
