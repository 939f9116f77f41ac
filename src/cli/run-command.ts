// `warden run "prompt"`: one thread, run in this terminal through an in-process Supervisor. It follows the
// thread's events (printing them), answers approvals by the chosen policy, and ends when the CLI process
// has ended — which the SDK allows only once the prompt's turn, its subagents and the CLI's own follow-up
// turns are all done. Ctrl-C stops the thread (approvals cancelled, runs interrupted, processes ended).
import { ValidationError, WardenError } from '../protocol/errors.js';
import { Supervisor } from '../supervisor/index.js';
import { AnswerReader } from './answer-reader.js';
import type { Command } from './args.js';
import { Approver, type ApprovalPolicy } from './approver.js';
import { defaultDataDir, storeHint } from './data-dir.js';
import { Progress } from './progress.js';
import { onShutdown } from './shutdown.js';
import { singlePromptQuery } from './single-prompt-query.js';
import { Transcript, styles } from './transcript.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export async function runCommand(command: Extract<Command, { name: 'run' }>): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
  const shutdown = onShutdown(EXIT.interrupted);
  const color = process.stdout.isTTY && process.env.NO_COLOR === undefined;
  const s = styles(color);
  const progress = new Progress();
  const out = (text: string): void => progress.around(() => process.stdout.write(text));
  const err = (text: string): void => progress.around(() => process.stderr.write(text));
  const reader = new AnswerReader();
  let supervisor: Supervisor | undefined;
  try {
    supervisor = await Supervisor.open({
      dataDir,
      query: singlePromptQuery(),
      onWarning: (warning) => err(s.dim(`warden: ${warning.message}\n`)),
      ...(command.claude === undefined ? {} : { claudePath: command.claude }),
    });
    const thread = await supervisor.createThread({
      cwd: command.cwd,
      mode: command.mode,
      ...(command.model === undefined ? {} : { model: command.model }),
    });
    err(s.dim(`warden: thread ${thread.id} in ${thread.cwd} (mode ${thread.mode})\n`));
    const transcript = new Transcript(out, s);
    const policy: ApprovalPolicy =
      command.policy === 'auto' ? (process.stdin.isTTY ? 'ask' : 'unattended') : command.policy;
    const approver = new Approver({
      supervisor,
      policy,
      reader,
      progress,
      err,
      styles: s,
      subagentName: (id) => transcript.subagentName(id),
      echo: process.stdin.isTTY !== true,
    });

    const events = supervisor.events({ threadId: thread.id });
    progress.start();
    await supervisor.send(thread.id, command.prompt);
    const open = supervisor;
    let stopping: Promise<void> | undefined;
    void shutdown.requested.then(() => {
      err(s.yellow('\nwarden: interrupted; stopping the agent…\n'));
      stopping = open.stop(thread.id).catch(() => undefined);
    });

    let failed = false;
    const running = new Set<string>();
    for await (const event of events) {
      transcript.onEvent(event);
      if (event.type === 'approval.requested') approver.onRequested(event.data);
      else if (
        event.type === 'approval.decided' ||
        event.type === 'approval.cancelled' ||
        event.type === 'approval.expired'
      )
        approver.onSettled(event.data.approvalId);
      else if (event.type === 'subagent.started') running.add(event.data.subagentId);
      else if (event.type === 'subagent.ended') running.delete(event.data.subagentId);
      else if (event.type === 'run.ended' && event.data.status !== 'completed') failed = true;
      else if (event.type === 'session.ended' && event.data.error !== null) failed = true;
      progress.label =
        running.size === 0
          ? 'working'
          : `waiting for ${[...running].map((id) => transcript.subagentName(id) ?? id).join(', ')}`;
      if (event.type === 'session.ended') break;
    }
    await stopping;
    if (shutdown.signal.aborted) return EXIT.interrupted;
    return failed ? EXIT.failed : EXIT.ok;
  } catch (error) {
    progress.stop();
    if (error instanceof ValidationError) {
      process.stderr.write(`warden: ${error.message}\n`);
      return EXIT.usage;
    }
    const code = WardenError.isWardenError(error) ? ` [${error.code}]` : '';
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`warden: ${message}${code}${storeHint(error)}\n`);
    return shutdown.signal.aborted ? EXIT.interrupted : EXIT.failed;
  } finally {
    progress.stop();
    reader.close();
    shutdown.dispose();
    await supervisor?.close({ stopAgents: true });
  }
}
