// A host that spawns a detached echo CLI, writes one line to it, prints the CLI's identity and exits, as a
// host that crashes or upgrades would. Usage: detached-host-fixture.ts <dir>
import { spawnDetached } from '../../src/transport/detached-child.js';
import { openFifoWriter } from '../../src/transport/fifo.js';

const dir = process.argv[2];
if (dir === undefined) throw new TypeError('usage: detached-host-fixture.ts <dir>');
const child = await spawnDetached({
  command: process.execPath,
  args: [new URL('../fixtures/echo-lines.mjs', import.meta.url).pathname],
  cwd: undefined,
  env: { PATH: process.env.PATH },
  marker: 'detached-host-fixture',
  dir,
});
const input = openFifoWriter(child.paths.input);
input.end('from the first host\n', () => {
  process.stdout.write(`${JSON.stringify({ pid: child.pid, startTicks: child.startTicks })}\n`);
  process.exit(0);
});
