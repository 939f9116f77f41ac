// Run as its own process by transport-orphans.test.ts: starts two fake CLIs, one that leaves a grandchild
// in its own session and one that ignores stdin's end (so the host's exit alone would not end it), prints
// their pids, and exits without closing anything. The transport's exit hook must kill all three.

import { spawnTransport } from '../../src/transport/index.js';
import { FAKE_CLI } from './transport-helpers.js';

function start(mode: string) {
  return spawnTransport({
    command: process.execPath,
    args: [FAKE_CLI, '--mode', mode],
    env: { PATH: process.env['PATH'] },
  });
}

const escaping = await start('setsid-grandchild');
const stubborn = await start('never-respond');
const first = await escaping.frames().next();
const grandchild = first.done === true ? undefined : first.value['pid'];
process.stdout.write(`${JSON.stringify({ pids: [escaping.pid, stubborn.pid, grandchild] })}\n`);
process.exit(0);
