// `warden run "prompt"`: one thread, followed in this terminal. Where the thread lives depends on the data
// directory: when a `warden serve` runs on it, the thread is created in that server through its API and
// followed over its WebSocket, so the browser shows it too and an approval can be answered in either
// place; otherwise an in-process Supervisor runs it, and the command ends when the CLI process has ended —
// which the SDK allows only once the prompt's turn, its subagents and the CLI's own follow-up turns are all
// done. `--demo` runs it offline against the demo's scripted model. Usage errors are found before anything
// is written to disk. Ctrl-C stops the thread (approvals cancelled, runs interrupted, processes ended).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

import { ValidationError, WardenError } from '../protocol/errors.js';
import type { StoredEvent } from '../store/event-types.js';
import { Supervisor } from '../supervisor/index.js';
import { AnswerReader } from './answer-reader.js';
import { UsageError, type Command } from './args/index.js';
import { Approver, type ApprovalPolicy } from './approver.js';
import { AttachedRunEnd } from './attached-run-end.js';
import { defaultDataDir, storeHint } from './data-dir.js';
import { openDemoEnvironment, type DemoEnvironment } from './demo-environment.js';
import { DEMO_PROMPT } from './demo-scenario.js';
import { Progress } from './progress.js';
import { ServerClient } from './client/server-client.js';
import { onShutdown } from './shutdown.js';
import { singlePromptQuery } from './single-prompt-query.js';
import { attachedHost, localHost, type ThreadHost } from './thread-host.js';
import { Transcript, styles } from './transcript.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

type RunCommand = Extract<Command, { name: 'run' }>;

export async function runCommand(command: RunCommand): Promise<number> {
  const cwd = command.demo === true ? undefined : existingDirectory(command.cwd);
  const dataDir = command.dataDir ?? defaultDataDir();
  const shutdown = onShutdown(EXIT.interrupted);
  const color = process.stdout.isTTY && process.env.NO_COLOR === undefined;
  const s = styles(color);
  const progress = new Progress();
  const out = (text: string): void => progress.around(() => process.stdout.write(text));
  const err = (text: string): void => progress.around(() => process.stderr.write(text));
  const reader = new AnswerReader();
  const follow = new AbortController();
  let supervisor: Supervisor | undefined;
  let demo: DemoEnvironment | undefined;
  try {
    const open = async (options: Parameters<typeof Supervisor.open>[0]): Promise<ThreadHost> => {
      supervisor = await Supervisor.open({
        query: singlePromptQuery(),
        onWarning: (warning) => err(s.dim(`warden: ${warning.message}\n`)),
        ...options,
      });
      return localHost(supervisor);
    };
    let host: ThreadHost;
    let threadCwd: string;
    if (command.demo === true) {
      demo = await openDemoEnvironment(command.claude);
      host = await open({ dataDir: demo.dataDir, claudePath: demo.claudePath, env: demo.env });
      threadCwd = demo.cwd;
    } else {
      const client = ServerClient.locate(dataDir);
      host =
        client === undefined
          ? await open({ dataDir, ...(command.claude === undefined ? {} : { claudePath: command.claude }) })
          : attachedHost(client);
      if (client !== undefined)
        err(s.dim(`warden: a server runs on ${dataDir}: the thread is created there (${client.url})\n`));
      threadCwd = cwd ?? command.cwd;
    }

    const prompt = command.prompt === '' ? DEMO_PROMPT : command.prompt;
    const { thread, runId } = await host.start(
      {
        cwd: threadCwd,
        mode: command.mode,
        ...(command.model === undefined ? {} : { model: command.model }),
        ...(command.agent === undefined ? {} : { agent: command.agent }),
      },
      prompt,
    );
    err(s.dim(`warden: thread ${thread.id} in ${thread.cwd} (mode ${thread.mode})\n`));
    const policy = approvalPolicy(command, host);
    // On one terminal the question shows the request: the transcript need not announce it as well.
    const transcript = new Transcript(out, s, {
      announceApprovals: !(policy === 'ask' && process.stdout.isTTY && process.stderr.isTTY),
    });
    const approver = new Approver({
      decide: (approvalId, decision) => host.decide(approvalId, decision),
      policy,
      reader,
      progress,
      err,
      styles: s,
      subagentName: (id) => transcript.subagentName(id),
      echo: process.stdin.isTTY !== true,
      cwd: thread.cwd,
    });
    transcript.answeredHere = (approvalId) => approver.answered(approvalId);

    progress.start();
    let stopping: Promise<void> | undefined;
    void shutdown.requested.then(() => {
      err(s.yellow('\nwarden: interrupted; stopping the agent…\n'));
      stopping = host.stop(thread.id).catch(() => undefined);
      // Attached, the server reports the stop; alone, the CLI's end ends the stream.
      if (host.kind === 'attached') void stopping.then(() => follow.abort());
    });

    // A Codex app-server stays up between turns, as a server's CLI does: the thread's events say when
    // the prompt is through.
    const end = host.kind === 'attached' || thread.agent === 'codex' ? new AttachedRunEnd(runId) : undefined;
    let failed = false;
    const running = new Set<string>();
    const events = host.events(thread.id, follow.signal)[Symbol.asyncIterator]();
    for (;;) {
      const next = await nextOrQuiet(events, end?.quietWait());
      if (next === 'quiet' || next.done === true) break;
      const event = next.value;
      end?.onEvent(event);
      if (event.type === 'run.ended' && event.data.runId === runId) demo?.subagentMayAsk();
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
    follow.abort();
    await events.return?.();
    await stopping;
    if (shutdown.signal.aborted) return EXIT.interrupted;
    if (host.kind === 'attached')
      err(s.dim(`warden: done; the thread stays in the server (open it in the browser to go on)\n`));
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
    follow.abort();
    progress.stop();
    reader.close();
    shutdown.dispose();
    await supervisor?.close({ stopAgents: true });
    await demo?.close();
  }
}

/** `--cwd` as an absolute path, or a UsageError (before anything is written) when it is no directory. */
function existingDirectory(path: string): string {
  const absolute = resolve(path);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new UsageError(`--cwd ${JSON.stringify(path)} is not an existing directory`);
  return absolute;
}

/**
 * Who answers: the flags say; without one, the person at this terminal — or, in a pipe, nobody here:
 * alone the run denies (nobody could answer), attached it leaves them to the browser and `warden inbox`.
 */
function approvalPolicy(command: RunCommand, host: ThreadHost): ApprovalPolicy {
  if (command.policy !== 'auto') return command.policy;
  if (process.stdin.isTTY) return 'ask';
  return host.kind === 'attached' ? 'elsewhere' : 'unattended';
}

/** The next event, or 'quiet' when `quietMs` pass without one (undefined: wait as long as it takes). */
async function nextOrQuiet(
  events: AsyncIterator<StoredEvent>,
  quietMs: number | undefined,
): Promise<IteratorResult<StoredEvent> | 'quiet'> {
  const next = events.next();
  if (quietMs === undefined) return next;
  let timer: NodeJS.Timeout | undefined;
  const quiet = new Promise<'quiet'>((resolve) => (timer = setTimeout(() => resolve('quiet'), quietMs)));
  try {
    const first = await Promise.race([next, quiet]);
    // The pending next() is settled by events.return() once the loop ends; nothing is lost before that.
    if (first === 'quiet') void next.catch(() => undefined);
    return first;
  } finally {
    clearTimeout(timer);
  }
}
