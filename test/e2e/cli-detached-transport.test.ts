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
import { query } from '../../src/index.js';
import type { CliLaunch } from '../../src/transport/cli-transport.js';
import { DetachedTransport, spoolOffsetOf } from '../../src/transport/detached-transport.js';
import { isAlive } from '../../src/transport/exit-watch.js';
import { signalGroup } from '../../src/transport/process-tree.js';
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
  let pid: number | undefined;
  try {
    const child = await spawnDetached({
      command: pinnedClaudePath(),
      args: [...STREAM_JSON_ARGS, '--permission-prompt-tool', 'stdio'],
      cwd: scratch.cwd,
      env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
      marker,
      dir: join(root, 'cli'),
    });
    pid = child.pid;
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
    await first.detach();
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
    // A failed assertion must not leave a detached CLI running: it would outlive the test run.
    if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    await mock.close();
    scratch.cleanup();
  }
});

test(
  'query() over a detached CLI: a second query joins it and answers the request the first left',
  HANG,
  async () => {
    const scratch = createScratch();
    const mock = await startMockModel({
      script: scenario()
        .on('touch')
        .callTool('Bash', { command: 'touch joined.txt', description: 'Create a file' })
        .thenAnswer(() => 'done')
        .build(),
    });
    const marker = randomUUID();
    const dir = join(root, 'query-cli');
    let spawned: Awaited<ReturnType<typeof spawnDetached>> | undefined;
    try {
      const spawnHere = async (launch: CliLaunch): Promise<DetachedTransport> => {
        spawned = await spawnDetached({ ...launch, cwd: launch.cwd, marker, dir });
        return new DetachedTransport({
          paths: spawned.paths,
          identity: { pid: spawned.pid, startTicks: spawned.startTicks },
          marker,
          exited: spawned.exited,
        });
      };
      let firstAsked: ((id: string) => void) | undefined;
      const askedId = new Promise<string>((resolve) => (firstAsked = resolve));
      const first = query({
        prompt: '[[touch]] create the file',
        options: {
          cwd: scratch.cwd,
          env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
          cliTransport: spawnHere,
          canUseTool: (_tool, _input, { toolUseID }) => {
            firstAsked?.(toolUseID);
            return new Promise(() => undefined); // The first host never answers: it goes away.
          },
        },
      });
      const firstMessages = (async () => {
        for await (const message of first) void message;
      })();
      const toolUseId = await within(60_000, askedId, 'the first permission request');
      first.detach();
      await within(10_000, firstMessages, 'the end of the first query');
      assert.ok(spawned !== undefined);
      const cli = spawned;
      assert.ok(isAlive({ pid: cli.pid, startTicks: cli.startTicks }), 'detach() left the CLI running');

      const seen: string[] = [];
      const second = query({
        // Held open and empty, as the supervisor holds a thread's input.
        prompt: { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }) },
        options: {
          cwd: scratch.cwd,
          env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
          cliTransport: () =>
            Promise.resolve(
              new DetachedTransport({
                paths: cli.paths,
                identity: { pid: cli.pid, startTicks: cli.startTicks },
                marker,
                attaching: true,
              }),
            ),
          canUseTool: (_tool, input, { toolUseID }) => {
            seen.push(toolUseID);
            return Promise.resolve({ behavior: 'allow', updatedInput: input });
          },
        },
      });
      let resultSubtype: string | undefined;
      for await (const message of second) {
        if (message.type === 'result') {
          resultSubtype = message.subtype;
          break;
        }
      }
      assert.equal(resultSubtype, 'success');
      assert.deepEqual(seen, [toolUseId], 'the request the first query left reached the second, once');
      assert.ok(existsSync(join(scratch.cwd, 'joined.txt')));
      await within(10_000, second.closed, 'the second query closing');
      assert.equal(existsSync(dir), false, 'closing ended the CLI and removed its files');
      await assertNoProcesses([cli.pid], { deadNow: false });
    } finally {
      // A failed assertion must not leave a detached CLI running: it would outlive the test run.
      if (spawned !== undefined) signalGroup(spawned.pid, 'SIGKILL');
      await mock.close();
      scratch.cleanup();
    }
  },
);
