// Exactly once across a crash: the host is SIGKILLed while the real CLI streams a burst of frames (a turn
// of many tool round trips that need no permission). The CLI carries on into its spool; the next host
// reads on from the offset committed with the last recorded frame. Every assistant message and tool
// result the CLI produced is in the log exactly once: none lost, none twice.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { openDurableScene } from './helpers/durable-host.js';
import {
  allEvents,
  assertContiguous,
  assertNoProcessLeft,
  waitForEvent,
  waitForNoProcess,
} from './helpers/supervisor-session.js';

const ROUNDS = 30;

describe('supervisor: the host is SIGKILLed in the middle of a burst of frames', { timeout: 180_000 }, () => {
  it('records each assistant message and tool result exactly once after re-attaching', async (t) => {
    const scene = await openDurableScene(t, (scratch) => {
      writeFileSync(join(scratch.cwd, 'notes.txt'), 'a line\n');
      let script = scenario().on('burst');
      for (let i = 0; i < ROUNDS; i += 1)
        script = script.callTool('Read', { file_path: join(scratch.cwd, 'notes.txt') }, { delayMs: 20 });

      return script.thenAnswer('All read.').build();
    });
    const { scratch, config, mock } = scene;
    const host = scene.host({
      threads: [{ cwd: scratch.cwd, prompt: '[[burst]] read the notes many times' }],
    });
    // Killed while the turn streams: a third of the way in.
    await host.waitFor(
      () => host.events.filter((e) => e.type === 'tool.result').length >= ROUNDS / 3,
      'a third of the burst',
    );
    await host.kill();
    const seenByDeadHost = host.events.filter((e) => e.type === 'message.assistant').length;
    assert.ok(seenByDeadHost < ROUNDS, 'the host died before the burst was over');

    const sup = await Supervisor.open(config);
    scene.sup = sup;
    assert.equal(sup.recovered.processesReattached, 1);
    const [thread] = sup.listThreads();
    assert.ok(thread !== undefined);
    const ended = await waitForEvent(sup, 'run.ended');
    assert.equal(ended.data.status, 'completed');
    assert.equal(ended.data.result?.text, 'All read.');

    const events = await allEvents(sup);
    assertContiguous(events);
    const assistant = events.flatMap((e) => (e.type === 'message.assistant' ? [e.data] : []));
    const keys = assistant.map((m) => `${m.messageId}:${JSON.stringify(m.blocks)}`);
    assert.equal(new Set(keys).size, keys.length, 'no assistant message is recorded twice');
    const mainRequests = mock.requests.filter((r) => r.kind === 'main');
    assert.equal(
      new Set(assistant.map((m) => m.messageId)).size,
      mainRequests.length,
      'one recorded message per model reply: none lost',
    );
    const toolUses = assistant.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_use').map((b) => b.id));
    assert.equal(toolUses.length, ROUNDS);
    const results = events.flatMap((e) => (e.type === 'tool.result' ? [e.data.toolUseId] : []));
    assert.deepEqual([...results].sort(), [...toolUses].sort(), 'each tool result once, for each call');
    assert.equal(events.filter((e) => e.type === 'run.ended').length, 1);
    await sup.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });
});
