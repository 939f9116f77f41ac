// The model-based test's two halves: a small model of what the supervisor should hold (threads, their open
// turn, subagents, grants, and every permission request the scripted CLI made with the answer it should
// get), and the real supervisor over FakeQuery processes. Each command acts on both; afterwards the real
// state must match the model and the invariants must hold (supervisor-invariants.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { PermissionResult } from '../../src/protocol/control.js';
import { Supervisor, type SupervisorOptions, type ThreadMode } from '../../src/supervisor/index.js';
import { poll } from '../../src/testing/index.js';
import { frames, type FakeQuery } from '../fixtures/supervisor-fake-query.js';
import type { StoreBackend } from '../helpers/store-backends.js';

/** The requests the scripted CLI makes, each with what the policy does with it. */
export const KINDS = ['bash', 'read', 'write'] as const;
export type Kind = (typeof KINDS)[number];

export function requestOf(kind: Kind, cwd: string): { toolName: string; input: Record<string, unknown> } {
  switch (kind) {
    case 'bash':
      return { toolName: 'Bash', input: { command: 'npm test' } };
    case 'read':
      return { toolName: 'Read', input: { file_path: '/etc/hostname' } };
    case 'write':
      return { toolName: 'Write', input: { file_path: join(cwd, 'notes.txt'), content: 'x' } };
  }
}

/** The rule "always allow" grants for each kind (the narrowest the approval offers). */
export function ruleOf(kind: Kind, cwd: string): string {
  switch (kind) {
    case 'bash':
      return 'Bash(npm test)';
    case 'read':
      return 'Read(//etc/hostname)';
    case 'write':
      return `Write(/${join(cwd, 'notes.txt')})`;
  }
}

export type Scope = 'thread' | 'session';

export interface ModelRun {
  ended: boolean;
  released: boolean;
}

export interface ModelSubagent {
  run: number;
  running: boolean;
}

export interface ModelThread {
  mode: ThreadMode;
  live: boolean;
  /** The run whose turn is open (init seen, no result yet). */
  openRun: number | undefined;
  /** Runs sent while a turn was open, in order: the CLI takes each when the turn before it ends. */
  queued: number[];
  runs: ModelRun[];
  subagents: ModelSubagent[];
  /** The kinds "always allow" granted, as `kind:scope` (a kind may be granted in both scopes). */
  grants: Set<`${Kind}:${Scope}`>;
}

export type AskStatus = 'pending' | 'allow' | 'deny';

export interface ModelAsk {
  thread: number;
  run: number;
  subagent: number | undefined;
  kind: Kind;
  status: AskStatus;
}

export interface Model {
  threads: ModelThread[];
  asks: ModelAsk[];
}

export function emptyModel(): Model {
  return { threads: [], asks: [] };
}

/** What the thread's policy does with a request of this kind: answer it at once, or ask a person. */
export function verdict(thread: ModelThread, kind: Kind): 'allow' | 'ask' {
  if (
    thread.mode === 'full-access' ||
    thread.grants.has(`${kind}:thread`) ||
    thread.grants.has(`${kind}:session`)
  )
    return 'allow';
  if (thread.mode === 'auto-edits' && kind === 'write') return 'allow';
  return 'ask';
}

/** Settles the model's pending asks that match, with `status`. */
export function settleAsks(model: Model, match: (ask: ModelAsk) => boolean, status: AskStatus): void {
  for (const ask of model.asks) if (ask.status === 'pending' && match(ask)) ask.status = status;
}

/** A run that ended and has no running subagent lets go: its pending approvals are cancelled. */
export function maybeRelease(model: Model, threadIndex: number, runIndex: number): void {
  const thread = model.threads[threadIndex]!;
  const run = thread.runs[runIndex]!;
  if (!run.ended || run.released) return;
  if (thread.subagents.some((s) => s.run === runIndex && s.running)) return;
  run.released = true;
  settleAsks(model, (a) => a.thread === threadIndex && a.run === runIndex, 'deny');
}

/** The process is gone: everything it could answer is closed out. */
export function endProcess(model: Model, threadIndex: number): void {
  const thread = model.threads[threadIndex]!;
  thread.live = false;
  thread.openRun = undefined;
  thread.queued = [];
  for (const run of thread.runs) {
    run.ended = true;
    run.released = true;
  }
  for (const subagent of thread.subagents) subagent.running = false;
  settleAsks(model, (a) => a.thread === threadIndex, 'deny');
}

// ---------------------------------------------------------------------------------------------------------
// The real side.

export interface RealAsk {
  readonly thread: number;
  readonly fake: FakeQuery;
  readonly generation: number;
  readonly requestId: string;
  readonly withdraw: () => void;
  /** How many times the CLI's request was answered (a promise settles once; counted to prove it). */
  answers: number;
  answer: PermissionResult | undefined;
  approvalId: string | undefined;
}

export interface RealThread {
  readonly id: string;
  readonly cwd: string;
  fake: FakeQuery | undefined;
  generation: number;
  readonly runIds: string[];
  readonly uuids: string[];
  readonly subagentIds: string[];
}

export class Real {
  sup: Supervisor;
  readonly options: SupervisorOptions;
  readonly made: FakeQuery[];
  readonly root: string;
  readonly threads: RealThread[] = [];
  readonly asks: RealAsk[] = [];
  /** Operations performed, by name, for the summary. */
  readonly counts = new Map<string, number>();
  #nextTask = 0;

  /** The store backend the history runs on (the host-killed command copies its store). */
  readonly backend: StoreBackend;

  constructor(
    sup: Supervisor,
    options: SupervisorOptions,
    made: FakeQuery[],
    root: string,
    backend: StoreBackend,
  ) {
    this.sup = sup;
    this.backend = backend;
    this.options = options;
    this.made = made;
    this.root = root;
  }

  count(name: string): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  newCwd(): string {
    const cwd = join(this.root, `work-${this.threads.length}`);
    mkdirSync(cwd, { recursive: true });
    return cwd;
  }

  newTaskId(): string {
    return `task-${++this.#nextTask}`;
  }

  /** Asks through the thread's live fake CLI; the answer is counted when it comes. */
  ask(threadIndex: number, kind: Kind, agentID: string | undefined): RealAsk {
    const thread = this.threads[threadIndex]!;
    const fake = thread.fake!;
    const { toolName, input } = requestOf(kind, thread.cwd);
    const asked = fake.ask(toolName, input, agentID === undefined ? {} : { agentID });
    const ask: RealAsk = {
      thread: threadIndex,
      fake,
      generation: thread.generation,
      requestId: asked.requestId,
      withdraw: () => asked.withdraw(),
      answers: 0,
      answer: undefined,
      approvalId: undefined,
    };
    void asked.result.then(
      (answer) => {
        ask.answers += 1;
        ask.answer = answer;
      },
      () => {
        ask.answers += 1;
      },
    );
    this.asks.push(ask);
    return ask;
  }

  async reopen(): Promise<void> {
    await this.sup.close();
    this.sup = await Supervisor.open(this.options);
    for (const thread of this.threads) thread.fake = undefined;
  }

  emit(threadIndex: number, frame: Record<string, unknown>): void {
    this.threads[threadIndex]!.fake!.emit(frame);
  }
}

export { frames };

/** Polls `condition` (every few ms) until it holds or `timeoutMs` passes; orders nothing. */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<boolean> {
  return (await poll(condition, { timeoutMs, intervalMs: 2 })) === true;
}
