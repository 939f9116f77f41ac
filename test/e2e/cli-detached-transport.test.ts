// The real CLI behind a DetachedTransport: a first transport sends the prompt, sees the permission request
// and lets go (detach); the CLI waits on. A second transport attaches at the offset the first one reached,
// sends initialize again, finds the same request re-delivered, answers it, and the tool runs. close()
// then ends the CLI and removes its pipe and spool.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../../src/testing/index.js';
import { spawnDetached } from '../../src/transport/detached-child.js';
import { DetachedTransport, spoolOffsetOf } from '../../src/transport/detached-transport.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { assertNoProcesses, within } from '../integration/transport-helpers.js';
import { STREAM_JSON_ARGS } from './helpers/cli-process.js';

type Frame = Record<string, unknown>;
const HANG = { timeout: 90_000 };
const root = mkdtempSync(join(tmpdir(), 'warden-detached-e2e-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function next(frames: AsyncIterator<Frame>, wanted: (frame: Frame) => boolean): Promise<Frame> {
  for (;;) {
    const step = await within(60_000, frames.next(), 'the next frame');
    assert.equal(step.done, false, 'the CLI stopped writing before the awaited frame');
    if (wanted(step.value)) return step.value;
  }
}

const isRequest = (subtype: string) => (frame: Frame) =>
  frame['type'] === 'control_request' && (frame['request'] as Frame | undefined)?.['subtype'] === subtype;
const isResponseTo = (id: string) => (frame: Frame) =>
  frame['type'] === 'control_response' && (frame['response'] as Frame | undefined)?.['request_id'] === id;

test('a detached CLI keeps its permission request for the next host, which answers it', HANG, async () => {
  const scratch = createScratch();
  const mock = await startMockModel({
    script: scenario()
      .on('touch')
      .callTool('Bash', { command: 'touch notes.txt', description: 'Create notes' })
      .thenAnswer(() => 'done')
      .build(),
  });
  const marker = randomUUID();
  try {
    const child = await spawnDetached({
      command: pinnedClaudePath(),
      args: [...STREAM_JSON_ARGS, '--permission-prompt-tool', 'stdio'],
      cwd: scratch.cwd,
      env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
      marker,
      dir: join(root, 'cli'),
    });
    const identity = { pid: child.pid, startTicks: child.startTicks };

    // The first host.
    const first = new DetachedTransport({ paths: child.paths, identity, marker, exited: child.exited });
    const firstFrames = first.frames();
    await first.send({
      type: 'control_request',
      request_id: 'init-1',
      request: { subtype: 'initialize', hooks: {} },
    });
    await first.send({
      type: 'user',
      message: { role: 'user', content: '[[touch]] create notes' },
      parent_tool_use_id: null,
      session_id: '',
    });
    const asked = await next(firstFrames, isRequest('can_use_tool'));
    const askedOffset = spoolOffsetOf(asked);
    assert.ok(askedOffset !== undefined && askedOffset > 0);
    first.detach();
    assert.equal((await firstFrames.next()).done, true, 'detach ends frames() cleanly');
    assert.ok(isAlive(identity), 'the CLI waits on without a host');

    // The second host reads on where the first one stopped and asks for what is still pending.
    const second = new DetachedTransport({ paths: child.paths, identity, marker, offset: askedOffset });
    const frames = second.frames();
    await second.send({
      type: 'control_request',
      request_id: 'init-2',
      request: { subtype: 'initialize', hooks: {} },
    });
    const reply = await next(frames, isResponseTo('init-2'));
    // The re-delivered requests stand beside the initialize reply, not inside it.
    const pending = (reply['response'] as Frame)['pending_permission_requests'] as Frame[];
    assert.deepEqual(
      pending.map((request) => request['request_id']),
      [asked['request_id']],
    );
    await second.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: asked['request_id'],
        response: { behavior: 'allow', updatedInput: (asked['request'] as Frame)['input'] },
      },
    });
    const result = await next(frames, (frame) => frame['type'] === 'result');
    assert.equal(result['subtype'], 'success');
    assert.ok(existsSync(join(scratch.cwd, 'notes.txt')), 'the tool ran after the second host allowed it');

    await second.close();
    assert.equal((await frames.next()).done, true, 'close() ends frames() cleanly');
    assert.equal(existsSync(child.paths.dir), false, 'no pipe or spool is left');
    await assertNoProcesses([child.pid], { deadNow: false });
  } finally {
    await mock.close();
    scratch.cleanup();
  }
});
