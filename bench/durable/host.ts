// The first host of a re-attach run (bench/durable/reattach.ts): opens a Supervisor on the dataDir it is
// given, starts one thread per cwd with a prompt whose tool call needs an approval, prints `ready` once
// every approval is pending, and waits to be SIGKILLed. argv[2]: JSON { dataDir, claudePath, env, cwds }.
import { Supervisor } from '../../src/supervisor/index.js';

const { dataDir, claudePath, env, cwds } = JSON.parse(process.argv[2] ?? '{}') as {
  dataDir: string;
  claudePath: string;
  env: Record<string, string>;
  cwds: string[];
};
const sup = await Supervisor.open({ dataDir, claudePath, env });
setInterval(() => undefined, 1 << 30);
const controller = new AbortController();
let pending = 0;
const following = (async () => {
  for await (const event of sup.events({ signal: controller.signal }))
    if (event.type === 'approval.requested' && ++pending === cwds.length) {
      process.stdout.write('ready\n');
      controller.abort();
    }
})();
for (const cwd of cwds) {
  const thread = await sup.createThread({ cwd, mode: 'supervised' });
  await sup.send(thread.id, '[[ask]] make a file');
}
await following;
