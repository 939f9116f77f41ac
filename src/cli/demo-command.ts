// `warden demo` (and `npm start`): everything offline in temporary directories — the mock model with the
// demo scenario, the real Claude Code CLI pointed at it, a Supervisor, the server and UI — plus one demo
// thread whose agent hands work to a background subagent. It is paced for a person: the subagent asks a
// few seconds after the root run has ended *and* someone is looking (a browser or `warden inbox` holds
// the event stream open; at most a minute is waited for that), so the run is seen to end before anything
// asks; once it has reported, the agent asks a question and shows a plan (demo-follow-up.ts). The terminal
// narrates: the root run's end, the note that the subagent will ask, each approval, question and plan, and
// the subagent's report; the commands it prints run as printed (program-name.ts). Ctrl-C removes all of
// it: servers, CLI processes, temp dirs.
import { setTimeout as sleep } from 'node:timers/promises';

import { WardenError } from '../protocol/errors.js';
import { createServer, type WardenServer } from '../server/index.js';
import { Supervisor } from '../supervisor/index.js';
import type { Command } from './args/index.js';
import { openDemoEnvironment, type DemoEnvironment } from './demo-environment.js';
import { questionsOf } from './answer-dialogs.js';
import { DEMO_PROMPT, DEMO_SUBAGENT } from './demo-scenario.js';
import { listenFailure } from './listen-failure.js';
import { loginCommandFor, printBanner } from './serve-command.js';
import { onShutdown } from './shutdown.js';
import { shellQuote, wardenProgram } from './program-name.js';
import { describeTool } from './transcript.js';
import { terminalSafe } from '../view/visible-text.js';

export async function demoCommand(command: Extract<Command, { name: 'demo' }>): Promise<number> {
  const shutdown = onShutdown();
  let demo: DemoEnvironment | undefined;
  let supervisor: Supervisor | undefined;
  let server: WardenServer | undefined;
  try {
    demo = await openDemoEnvironment(command.claude);
    const { dataDir, cwd } = demo;
    supervisor = await Supervisor.open({
      dataDir,
      claudePath: demo.claudePath,
      env: demo.env,
      onWarning: (warning) => process.stderr.write(`warden: ${warning.message}\n`),
    });
    server = await createServer({
      supervisor,
      dataDir,
      port: command.port ?? 0,
      defaultCwd: cwd,
      ...(command.host === undefined ? {} : { host: command.host }),
    });
    const thread = await supervisor.createThread({ cwd, mode: 'supervised' });
    const events = supervisor.events({ threadId: thread.id, signal: shutdown.signal });
    const run = await supervisor.send(thread.id, DEMO_PROMPT);
    printBanner(server, dataDir, command.host, loginCommandFor(dataDir, server.port, command.host));
    const inbox = `${wardenProgram()} inbox --data-dir ${shellQuote(dataDir)}`;
    process.stdout.write(
      `Demo thread ${thread.id}: “${DEMO_PROMPT}”\n` +
        `The agent hands the work to a background subagent (“${DEMO_SUBAGENT}”) and ends its turn; a few\n` +
        'seconds later the subagent asks for permission, and once it has reported, the agent asks you a\n' +
        'question and shows its plan. Answer in the browser (the inbox), in another terminal with\n' +
        `  ${inbox}\n` +
        'or with the API (docs/server.md).\n\n',
    );
    const started = demo;
    const served = server;
    void (async () => {
      for await (const event of events) {
        if (event.type === 'run.ended' && event.data.runId === run.id) {
          const looking = served.openSockets > 0;
          process.stdout.write(
            `• the agent's run ${event.data.status}; the background agent is still working: it will ask ` +
              `${looking ? 'in a few seconds' : 'a few seconds after you open the link'}\n`,
          );
          void someoneLooks(served, shutdown.signal).then(() => started.subagentMayAsk());
        }
        if (event.type === 'approval.requested')
          process.stdout.write(
            `• ${pendingLine(event.data.toolName, event.data.input)} (${event.data.approvalId})\n`,
          );
        if (event.type === 'approval.decided')
          process.stdout.write(`  answered: ${answeredLine(event.data)}\n`);
        if (event.type === 'subagent.ended')
          process.stdout.write(`• subagent ${event.data.status}: ${event.data.summary ?? ''}\n`);
      }
    })().catch((error: unknown) => process.stderr.write(`warden: ${String(error)}\n`));
    await shutdown.requested;
    process.stderr.write('\nwarden: stopping the demo…\n');
    return 0;
  } catch (error) {
    // One line, as for warden serve: a busy --port, a CLI that cannot start, …
    const message = error instanceof Error ? error.message : String(error);
    const code = WardenError.isWardenError(error) ? ` [${error.code}]` : '';
    const listening = listenFailure(error, command.host ?? '127.0.0.1', command.port ?? 0);
    process.stderr.write(`warden: ${listening ?? `the demo could not start: ${message}${code}`}\n`);
    return 1;
  } finally {
    shutdown.dispose();
    await server?.close();
    await supervisor?.close({ stopAgents: true });
    await demo?.close();
  }
}

/** How long the demo waits for a browser (or `warden inbox`) before its subagent asks anyway. */
const LOOK_MS = 60_000;
const POLL_MS = 200;

/** Resolves once a client holds the server's event stream open, or after LOOK_MS, or on shutdown. */
async function someoneLooks(server: WardenServer, signal: AbortSignal): Promise<void> {
  for (const deadline = Date.now() + LOOK_MS; Date.now() < deadline && !signal.aborted;) {
    if (server.openSockets > 0) return;
    await sleep(POLL_MS, undefined, { ref: false });
  }
}

/** What waits, in the terminal's words: a question, a plan, or a tool call. */
function pendingLine(toolName: string, input: Record<string, unknown>): string {
  if (toolName === 'AskUserQuestion')
    return `the agent asks you: ${questionsOf(input)
      .map(
        (q) =>
          `${terminalSafe(q.question, { fold: true })} (${q.options.map((o) => terminalSafe(o.label, { fold: true })).join(' / ')})`,
      )
      .join('; ')}`;
  if (toolName === 'ExitPlanMode') return 'the agent’s plan waits for your approval (the inbox shows it)';
  return `approval pending: ${describeTool(toolName, input)}`;
}

/** How it was answered: the behaviour, and for a question the answers given. */
function answeredLine(decision: { behavior: string; updatedInput?: Record<string, unknown> | null }): string {
  const answers = decision.updatedInput?.answers;
  if (typeof answers !== 'object' || answers === null) return decision.behavior;
  const given = Object.values(answers as Record<string, unknown>).filter((a) => typeof a === 'string');
  return `${decision.behavior} (${given.map((a) => terminalSafe(a, { fold: true })).join('; ')})`;
}
