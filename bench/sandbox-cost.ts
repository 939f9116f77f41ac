// What the sandbox costs (real CLI, mock model, Linux with bubblewrap): a CLI's start-up and a Bash call,
// with the sandbox (`auto`: Warden's bubblewrap prefix) and without (`off`), rounds alternating between
// two supervisors in one run; and the prefix alone, one command run the way the CLI runs it, with and
// without it. Start-up: send() of a thread's first message → its CLI's init (session.initialized). A Bash
// call: the assistant message that asks for it → its tool.result (full-access: no approval), `CALLS`
// calls of `true` per round. Figures are medians; the ratio is sandboxed / unsandboxed.
// Usage: node --import tsx bench/sandbox-cost.ts [--rounds 6] [--calls 5] [--direct 200]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Supervisor } from '../src/supervisor/index.js';
import { shellQuote } from '../src/supervisor/runtime/bubblewrap-prefix.js';
import { probeSandbox } from '../src/supervisor/runtime/sandbox-probe.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  scenario,
  startMockModel,
} from '../src/testing/index.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    calls: { type: 'string', default: '5' },
    direct: { type: 'string', default: '200' },
  },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const DIRECT = Number(values.direct);

const median = (list: readonly number[]): number => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

if (!probeSandbox(process.env).available) {
  console.log(`The sandbox cannot run here: ${probeSandbox(process.env).reason ?? 'unknown'}`);
  process.exit(0);
}

let track = scenario().on('bash');
for (let i = 0; i < CALLS; i++) track = track.callTool('Bash', { command: 'true', description: 'Nothing' });
const mock = await startMockModel({ script: track.thenAnswer('done').build() });
const scratch = createScratch('warden-bench-sandbox-');
const env = offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir });
const hosts = {
  off: await Supervisor.open({
    dataDir: join(scratch.dir, 'off'),
    claudePath: pinnedClaudePath(),
    env,
    sandbox: 'off',
  }),
  auto: await Supervisor.open({
    dataDir: join(scratch.dir, 'auto'),
    claudePath: pinnedClaudePath(),
    env,
    sandbox: 'auto',
  }),
};
const figures = {
  off: { startup: [] as number[], call: [] as number[] },
  auto: { startup: [] as number[], call: [] as number[] },
};

async function round(kind: 'off' | 'auto'): Promise<void> {
  const sup = hosts[kind];
  const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'full-access' });
  const asked = new Map<string, number>();
  let sentAt = 0;
  let runId = '';
  const done = (async () => {
    for await (const event of sup.events({ signal: AbortSignal.timeout(120_000) })) {
      const now = performance.now();
      if (event.threadId !== thread.id) continue;
      if (event.type === 'session.initialized') figures[kind].startup.push(now - sentAt);
      if (event.type === 'message.assistant')
        for (const block of event.data.blocks) if (block.type === 'tool_use') asked.set(block.id, now);
      if (event.type === 'tool.result') {
        const at = asked.get(event.data.toolUseId);
        if (at !== undefined) figures[kind].call.push(now - at);
      }
      if (event.type === 'run.ended' && event.data.runId === runId) return;
    }
  })();
  sentAt = performance.now();
  runId = (await sup.send(thread.id, '[[bash]] run it')).id;
  await done;
  await sup.stop(thread.id);
}

try {
  for (let i = 0; i < ROUNDS; i++)
    for (const kind of i % 2 === 0 ? (['off', 'auto'] as const) : (['auto', 'off'] as const))
      await round(kind);
  // The prefix alone: the command as the CLI hands it to its shell, with and without the prefix.
  const prefix = join(scratch.dir, 'auto', 'confinement');
  const script = spawnSync('sh', ['-c', `ls ${shellQuote(prefix)}/*.sh | head -1`], {
    encoding: 'utf8',
  }).stdout.trim();
  const time = (args: string[]) => {
    const started = performance.now();
    spawnSync('bash', args, { cwd: scratch.cwd, stdio: 'ignore' });
    return performance.now() - started;
  };
  const direct = { off: [] as number[], auto: [] as number[] };
  for (let i = 0; i < DIRECT; i++) {
    direct.off.push(time(['-c', 'true']));
    direct.auto.push(time(['-c', `${shellQuote(script)} 'true'`]));
  }
  const line = (name: string, off: readonly number[], auto: readonly number[]) =>
    console.log(
      `  ${name.padEnd(34)} off ${median(off).toFixed(1).padStart(7)} ms   sandbox ${median(auto).toFixed(1).padStart(7)} ms   ratio ${(median(auto) / median(off)).toFixed(2)}   (n ${off.length}/${auto.length})`,
    );
  console.log(
    `Sandbox cost, real CLI ${pinnedClaudePath().split('/').at(-2) ?? ''}, ${ROUNDS} rounds each, alternating (medians)`,
  );
  line('CLI start-up (send → init)', figures.off.startup, figures.auto.startup);
  line('Bash call (tool_use → result)', figures.off.call, figures.auto.call);
  line('the command alone (bash -c true)', direct.off, direct.auto);
} finally {
  await hosts.off.close({ stopAgents: true });
  await hosts.auto.close({ stopAgents: true });
  await mock.close();
  scratch.cleanup();
}
