// `warden demo` (and `npm start`): everything offline in temporary directories — the mock model with the
// demo scenario, the real Claude Code CLI pointed at it, a Supervisor, the server and UI — plus one demo
// thread already asking for permission. Ctrl-C removes all of it: servers, CLI processes, temp dirs.
import { join } from 'node:path';

import { createServer, type WardenServer } from '../server/index.js';
import { Supervisor } from '../supervisor/index.js';
import {
  createScratch,
  offlineClaudeEnv,
  pinnedClaudePath,
  resolveClaudeExecutable,
  startMockModel,
  type MockModel,
} from '../testing/index.js';
import type { Command } from './args.js';
import { DEMO_PROMPT, demoScenario } from './demo-scenario.js';
import { removeScratch } from './scratch-cleanup.js';
import { loginCommandFor, printBanner } from './serve-command.js';
import { onShutdown } from './shutdown.js';
import { describeTool } from './transcript.js';

export async function demoCommand(command: Extract<Command, { name: 'demo' }>): Promise<number> {
  const shutdown = onShutdown();
  const scratch = createScratch('warden-demo-');
  let mock: MockModel | undefined;
  let supervisor: Supervisor | undefined;
  let server: WardenServer | undefined;
  try {
    let rootRunEnded!: () => void;
    const rootEnded = new Promise<void>((resolve) => (rootRunEnded = resolve));
    mock = await startMockModel({ script: demoScenario(rootEnded) });
    const dataDir = join(scratch.dir, 'data');
    supervisor = await Supervisor.open({
      dataDir,
      claudePath: command.claude ?? demoClaudePath(),
      env: offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir }),
      onWarning: (warning) => process.stderr.write(`warden: ${warning.message}\n`),
    });
    server = await createServer({
      supervisor,
      dataDir,
      port: command.port ?? 0,
      defaultCwd: scratch.cwd,
      ...(command.host === undefined ? {} : { host: command.host }),
    });
    const thread = await supervisor.createThread({ cwd: scratch.cwd, mode: 'supervised' });
    const events = supervisor.events({ threadId: thread.id, signal: shutdown.signal });
    const run = await supervisor.send(thread.id, DEMO_PROMPT);
    printBanner(server, dataDir, command.host, loginCommandFor(dataDir, server.port, command.host));
    process.stdout.write(
      `Demo thread ${thread.id}: an agent starts a background subagent, which then asks for permission.\n` +
        'Answer in the browser (the inbox), or with the API: see docs/server.md.\n\n',
    );
    void (async () => {
      for await (const event of events) {
        if (event.type === 'run.ended' && event.data.runId === run.id) rootRunEnded();
        if (event.type === 'approval.requested')
          process.stdout.write(
            `• approval pending: ${describeTool(event.data.toolName, event.data.input)} (${event.data.approvalId})\n`,
          );
        if (event.type === 'approval.decided') process.stdout.write(`  answered: ${event.data.behavior}\n`);
        if (event.type === 'subagent.ended')
          process.stdout.write(`• subagent ${event.data.status}: ${event.data.summary ?? ''}\n`);
      }
    })().catch((error: unknown) => process.stderr.write(`warden: ${String(error)}\n`));
    await shutdown.requested;
    process.stderr.write('\nwarden: stopping the demo…\n');
    return 0;
  } finally {
    shutdown.dispose();
    await server?.close();
    await supervisor?.close({ stopAgents: true });
    await mock?.close();
    await removeScratch(scratch);
  }
}

/** The CLI version the demo was written against when it is installed; otherwise whatever claude is found. */
function demoClaudePath(): string {
  try {
    return pinnedClaudePath();
  } catch {
    return resolveClaudeExecutable();
  }
}
