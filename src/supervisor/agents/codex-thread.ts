// One thread whose agent is the Codex app-server (docs/agents.md). Its process is spawned detached (stdin
// a FIFO it holds, stdout a spool), recorded as a thread's CLI is (`session.process_started` with its
// spool and marker), so a host that stops — closed, or killed — leaves it running with its requests
// pending, and the next host joins it (attach): the spool is read again from its start, every request
// still unresolved is asked again under its own id and finds its approval. Each Codex turn is a run;
// its agent messages are the run's assistant messages. The Codex thread id is the thread's session id:
// a new process resumes it (`thread/resume`) when the last one is gone.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import {
  attachCodexAppServer,
  pendingRequests,
  spawnDetachedCodexAppServer,
  type CodexAppServer,
  type CodexNotification,
  type DetachedCodex,
  type ServerRequest,
  type UnknownServerRequest,
} from '../../agents/codex/index.js';
import { ConflictError, toError } from '../../protocol/errors.js';
import type { EventDraft } from '../../store/event-types.js';
import type { RunRecord } from '../../store/records.js';
import { detachedPaths } from '../../transport/detached-child.js';
import type { SupervisorCore } from '../core.js';
import { spoolRoot, type DetachedProcess } from '../durable/detached-cli.js';
import type { LeftRunning } from '../durable/detached-idle.js';
import { threadEvents } from '../event-stream.js';
import { answerCodexRequest } from './codex-requests-gate.js';
import type { CodexFileChange } from './codex-requests.js';
import { codexTurnEvents, type CodexTurns } from './codex-turn-events.js';

/** How Codex is started for this host's threads (SupervisorOptions.codex). */
export interface CodexLaunch {
  readonly codexPath?: string;
  readonly env: Record<string, string | undefined>;
  readonly config: readonly string[];
}

/** How long a re-attach waits for the spool to ask again what it still waits on, before judging the rest. */
const RECONCILE_MS = 15_000;

interface Live {
  readonly server: CodexAppServer;
  readonly process: DetachedCodex;
  readonly generation: number;
  readonly detach: () => Promise<void>;
}

export class CodexThread {
  readonly threadId: string;
  readonly #core: SupervisorCore;
  readonly #launch: CodexLaunch;
  #live: Live | undefined;
  #starting: Promise<Live> | undefined;
  /** Sends in order: a turn starts only after the one before it was asked for. */
  #queue: Promise<unknown> = Promise.resolve();
  #letGo = false;
  readonly #closing = new AbortController();
  readonly #changes = new Map<string, CodexFileChange[]>();
  readonly #turns: CodexTurns = { runByTurn: new Map(), current: undefined, seenItems: new Set() };

  constructor(core: SupervisorCore, threadId: string, launch: CodexLaunch) {
    this.#core = core;
    this.threadId = threadId;
    this.#launch = launch;
  }

  get live(): boolean {
    return this.#live !== undefined;
  }

  /** A new turn with this text, or input added to the turn in progress; resolves with its run. */
  send(text: string): RunRecord {
    const { core, threadId } = this.#parts();
    const current = this.#turns.current;
    if (current !== undefined && this.#live !== undefined) {
      const runId = this.#turns.runByTurn.get(current) ?? '';
      core.commit(threadId, [{ type: 'message.user', data: { runId, uuid: core.newId(), text } }]);
      void this.#steer(current, text);
      return this.#run(runId);
    }
    const runId = core.newId();
    const generation = core.store.getThread(threadId)?.generation ?? 0;
    core.commit(threadId, [
      {
        type: 'run.created',
        data: { runId, status: 'queued', trigger: 'human', prompt: text, userMessageId: null, generation },
      },
    ]);
    this.#queue = this.#queue.then(() => this.#startTurn(runId, text));
    return this.#run(runId);
  }

  async interrupt(): Promise<void> {
    const live = this.#live;
    const turnId = this.#turns.current;
    if (live === undefined || turnId === undefined) return;
    const threadId = this.#conversation();
    await live.server.interruptTurn({ threadId, turnId });
  }

  /** Ends the app-server; its runs are interrupted and its approvals cancelled with `reason`. */
  async stop(reason: string): Promise<void> {
    const live = this.#live ?? (await this.#starting?.catch(() => undefined));
    if (live === undefined) return;
    this.#letGo = true;
    this.#core.commit(this.threadId, [
      { type: 'session.stopping', data: { generation: live.generation, reason } },
    ]);
    await live.server.close();
    this.#ended(live, reason, null);
  }

  /** Leaves the app-server running for the next host, its requests pending and its turn going on. */
  async detach(): Promise<LeftRunning | undefined> {
    const live = this.#live ?? (await this.#starting?.catch(() => undefined));
    if (live === undefined) return undefined;
    this.#letGo = true;
    this.#closing.abort();
    await live.detach();
    const { pid } = live.process.identity;
    this.#core.record(this.threadId, [
      { type: 'session.detached', data: { generation: live.generation, pid, spoolOffset: 0 } },
    ]);
    const busy = this.#turns.current === undefined ? {} : { busy: 'a Codex turn' };
    return { threadId: this.threadId, pid, idleUntil: null, ...busy };
  }

  /**
   * Joins the app-server an earlier host left running. Resolves once every request the spool still
   * holds unresolved has been asked again (or after RECONCILE_MS); the thread's pending approvals that
   * none of them asked for are cancelled then (`not_pending_after_restart`).
   */
  attach(cli: DetachedProcess): Promise<void> {
    const process: DetachedCodex = {
      dir: cli.spoolDir,
      identity: { pid: cli.pid, startTicks: cli.startTime },
      marker: cli.marker,
    };
    this.#restoreTurns();
    const waiting = pendingRequests(detachedPaths(cli.spoolDir));
    let caughtUp: () => void = () => undefined;
    const allAsked = new Promise<void>((resolve) => (caughtUp = resolve));
    const asked = (requestId: string): void => {
      waiting.delete(requestId);
      if (waiting.size === 0) caughtUp();
    };
    if (waiting.size === 0) caughtUp();
    const server = attachCodexAppServer(process, {
      onServerRequest: (request) => this.#answer(process.marker, request, asked),
      onNotification: (notification) => this.#onNotification(notification),
    });
    const live: Live = { server, process, generation: cli.generation, detach: () => server.detach() };
    this.#live = live;
    this.#watch(live);
    this.#core.commit(this.threadId, [
      { type: 'session.reattached', data: { generation: cli.generation, pid: cli.pid, spoolOffset: 0 } },
    ]);
    const settled = boundedWait(allAsked, RECONCILE_MS).then(() => this.#closeOutUnasked());
    return settled;
  }

  async #startTurn(runId: string, text: string): Promise<void> {
    const { core, threadId } = this.#parts();
    try {
      const live = this.#live ?? (await this.#start());
      const input = [{ type: 'text' as const, text, text_elements: [] }];
      const { turn } = await live.server.startTurn({ threadId: this.#conversation(), input });
      this.#turns.runByTurn.set(turn.id, runId);
      this.#turns.current = turn.id;
      core.commit(threadId, [
        { type: 'run.started', data: { runId } },
        { type: 'message.user', data: { runId, uuid: turn.id, text } },
      ]);
    } catch (error) {
      core.record(threadId, [
        {
          type: 'run.ended',
          data: { runId, status: 'failed', reason: toError(error).message, result: null, origin: null },
        },
        { type: 'run.released', data: { runId } },
      ]);
    }
  }

  #start(): Promise<Live> {
    this.#starting ??= this.#spawn().finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  async #spawn(): Promise<Live> {
    const { core, threadId } = this.#parts();
    const thread = core.store.getThread(threadId);
    if (thread === undefined) throw new ConflictError(`Thread ${threadId} is gone`);
    const generation = thread.generation + 1;
    const root = spoolRoot(core.options.dataDir);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const dir = join(root, `${threadId}.${generation}`);
    // The generation is new: a directory of that name can only be a crash's leftover.
    rmSync(dir, { recursive: true, force: true });
    core.commit(threadId, [{ type: 'session.started', data: { generation, resume: thread.sessionId } }]);
    let marker = '';
    const { server, process } = await spawnDetachedCodexAppServer({
      dir,
      cwd: thread.cwd,
      env: this.#launch.env,
      config: this.#launch.config,
      watchdog: true,
      ...(this.#launch.codexPath === undefined ? {} : { codexPath: this.#launch.codexPath }),
      onServerRequest: (request) => this.#answer(marker, request, () => undefined),
      onNotification: (notification) => this.#onNotification(notification),
    }).catch((error: unknown) => {
      core.record(threadId, [
        {
          type: 'session.ended',
          data: { generation, reason: 'spawn_failed', error: toError(error).message },
        },
      ]);
      throw error;
    });
    marker = process.marker;
    const live: Live = { server, process, generation, detach: () => server.detach() };
    core.commit(threadId, [
      {
        type: 'session.process_started',
        data: {
          generation,
          pid: process.identity.pid,
          startTime: process.identity.startTicks ?? null,
          spoolDir: dir,
          marker,
        },
      },
    ]);
    this.#live = live;
    this.#watch(live);
    const settings = {
      cwd: thread.cwd,
      approvalPolicy: 'untrusted' as const,
      sandbox: 'workspace-write' as const,
    };
    const started =
      thread.sessionId === null
        ? await server.startThread(settings)
        : await server
            .resumeThread({ threadId: thread.sessionId, ...settings })
            .catch(async (error: unknown) => {
              core.commit(threadId, [
                {
                  type: 'session.resume_failed',
                  data: { generation, sessionId: thread.sessionId ?? '', error: toError(error).message },
                },
              ]);
              return server.startThread(settings);
            });
    core.commit(threadId, [
      {
        type: 'session.initialized',
        data: { generation, sessionId: started.thread.id, model: started.model, cliVersion: null },
      },
    ]);
    return live;
  }

  #answer(
    marker: string,
    request: ServerRequest | UnknownServerRequest,
    asked: (id: string) => void,
  ): Promise<unknown> {
    return answerCodexRequest(
      {
        core: this.#core,
        threadId: this.threadId,
        marker,
        runOf: (turnId) => this.#runOf(turnId),
        changes: this.#changes,
        tell: (turnId, message) => this.#tell(turnId, message),
        closing: this.#closing.signal,
        onAsked: asked,
      },
      request,
    );
  }

  #onNotification(notification: CodexNotification): void {
    const item = notification.params['item'] as
      { type?: string; id?: string; changes?: CodexFileChange[] } | undefined;
    if (notification.method === 'item/started' && item?.type === 'fileChange' && item.id !== undefined)
      this.#changes.set(item.id, item.changes ?? []);
    const drafts = codexTurnEvents(this.#turns, notification, (runId) => this.#core.store.getRun(runId));
    if (drafts.length > 0) this.#core.record(this.threadId, drafts);
  }

  /** The process ended: on its own (a crash), or after stop(). A detached one that is let go is not watched. */
  #watch(live: Live): void {
    void live.server.exited.then((exit) => {
      if (this.#live !== live) return;
      if (this.#letGo) return;
      // The exit is a race of the child's own exit and a watch on its pid (detached-transport.ts); when
      // the watch wins, or this host did not spawn it, its status is not known.
      const error =
        exit.signal !== null
          ? `killed by ${exit.signal}`
          : exit.exitCode !== null
            ? `exited with code ${exit.exitCode}`
            : 'the app-server ended (its exit status was not seen)';
      this.#ended(live, 'process_exited', error);
    });
  }

  #ended(live: Live, reason: string, error: string | null): void {
    const { core, threadId } = this.#parts();
    if (this.#live === live) this.#live = undefined;
    const drafts: EventDraft[] = [
      {
        type: 'session.process_exited',
        data: { generation: live.generation, pid: live.process.identity.pid },
      },
      { type: 'session.ended', data: { generation: live.generation, reason, error } },
    ];
    for (const run of core.store.listRuns(threadId))
      if (run.status === 'running' || run.status === 'queued')
        drafts.push(
          {
            type: 'run.ended',
            data: { runId: run.id, status: 'interrupted', reason, result: null, origin: null },
          },
          { type: 'run.released', data: { runId: run.id } },
        );
    for (const approval of core.store.listApprovals({ threadId, status: 'pending' })) {
      core.waiters.abandon(approval.id, { behavior: 'deny', message: 'The agent ended' });
      drafts.push({ type: 'approval.cancelled', data: { approvalId: approval.id, reason } });
    }
    this.#turns.current = undefined;
    core.record(threadId, drafts);
  }

  /** After a re-attach: which Codex turn each run is, the turn in progress, the items already recorded. */
  #restoreTurns(): void {
    const { store } = this.#core;
    for (const event of threadEvents(store, this.threadId)) {
      if (event.type === 'message.user' && !this.#turns.runByTurn.has(event.data.uuid))
        this.#turns.runByTurn.set(event.data.uuid, event.data.runId);
      if (event.type === 'message.assistant' && event.data.messageId !== null)
        this.#turns.seenItems.add(event.data.messageId);
    }
    for (const [turnId, runId] of this.#turns.runByTurn)
      if (store.getRun(runId)?.status === 'running') this.#turns.current = turnId;
  }

  #closeOutUnasked(): void {
    const { core, threadId } = this.#parts();
    if (core.closed) return;
    for (const approval of core.store.listApprovals({ threadId, status: 'pending' })) {
      if (core.waiters.has(approval.id)) continue;
      try {
        core.commit(threadId, [
          {
            type: 'approval.cancelled',
            data: { approvalId: approval.id, reason: 'not_pending_after_restart' },
          },
        ]);
      } catch (error) {
        if (!(error instanceof ConflictError)) core.warnFailure(error, `Could not close out ${approval.id}`);
      }
    }
  }

  /** The run a request belongs to: its turn's, else the turn in progress, else one made for it now. */
  #runOf(turnId: string | undefined): string {
    const known = turnId === undefined ? undefined : this.#turns.runByTurn.get(turnId);
    if (known !== undefined) return known;
    const running = this.#core.store.listRuns(this.threadId).find((run) => run.status === 'running');
    if (running !== undefined) return running.id;
    const runId = this.#core.newId();
    this.#core.commit(this.threadId, [
      {
        type: 'run.created',
        data: {
          runId,
          status: 'running',
          trigger: 'agent',
          prompt: null,
          userMessageId: null,
          generation: 0,
        },
      },
    ]);
    if (turnId !== undefined) this.#turns.runByTurn.set(turnId, runId);
    return runId;
  }

  async #steer(turnId: string, text: string): Promise<void> {
    const live = this.#live;
    if (live === undefined) return;
    const input = [{ type: 'text' as const, text, text_elements: [] }];
    await live.server
      .steerTurn({ threadId: this.#conversation(), expectedTurnId: turnId, input })
      .catch((error: unknown) =>
        this.#core.warnFailure(error, `Could not add to the Codex turn of ${this.threadId}`),
      );
  }

  #tell(turnId: string | undefined, message: string | undefined): Promise<void> {
    if (turnId === undefined || message === undefined || message === '') return Promise.resolve();
    return this.#steer(turnId, message);
  }

  #conversation(): string {
    return this.#core.store.getThread(this.threadId)?.sessionId ?? '';
  }

  #run(runId: string): RunRecord {
    const run = this.#core.store.getRun(runId);
    if (run === undefined) throw new ConflictError(`Run ${runId} vanished`);
    return run;
  }

  #parts(): { core: SupervisorCore; threadId: string } {
    return { core: this.#core, threadId: this.threadId };
  }
}

/** Resolves when `promise` does or after `ms`, whichever is first; the timer does not hold the process. */
function boundedWait(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
