// An in-process CLI that speaks the stream-json control protocol on a schedule, handed to query() through
// spawnClaudeCodeProcess: it answers initialize, takes user messages one turn at a time, and during a turn
// asks for tool permissions, starts background subagents that ask later (often after their turn's
// result), and ends with a result; a subagent that finishes while nothing runs starts a turn of the CLI's
// own. It honours interrupt and stop_task the way the real CLI does (pending requests cancelled, tasks
// stopped). `crash()` is its SIGKILL: a half-written frame, then the exit. Hundreds of these run in one
// host without a process each, so a soak can keep hundreds of threads busy on a small machine.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

import type { SpawnedProcess } from '../../../src/session/option-types.js';

export interface ScriptedCliPlan {
  /** Random numbers in [0, 1) (seeded by the caller). */
  readonly random: () => number;
  /** The longest pause between two steps of a turn, in ms. */
  readonly maxStepMs: number;
}

type Frame = Record<string, unknown>;

interface PendingAsk {
  readonly taskId: string | undefined;
  readonly resolve: () => void;
}

interface Task {
  readonly id: string;
  stopped: boolean;
}

const COMMANDS = ['npm test', 'npm run build', 'git push', 'make check', 'rm -rf dist'];

export class ScriptedCli extends EventEmitter implements SpawnedProcess {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  killed = false;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly #plan: ScriptedCliPlan;
  readonly #sessionId: string;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #asks = new Map<string, PendingAsk>();
  readonly #tasks = new Map<string, Task>();
  readonly #queue: string[] = [];
  /** The uuid of the host message whose turn runs, '' for a turn the CLI started, undefined when idle. */
  #turn: string | undefined;
  #turnGeneration = 0;
  #inputEnded = false;
  #exited = false;
  #next = 0;
  /** Makes ids unique across processes, as the real CLI's random ones are (a thread's next CLI reuses none). */
  readonly #prefix = randomUUID().slice(0, 8);

  constructor(plan: ScriptedCliPlan, args: readonly string[]) {
    super();
    this.#plan = plan;
    const resume = args.indexOf('--resume');
    this.#sessionId = resume >= 0 ? (args[resume + 1] ?? randomUUID()) : randomUUID();
    let buffered = '';
    this.stdin.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        this.#onLine(line);
      }
    });
    this.stdin.on('end', () => {
      this.#inputEnded = true;
      this.#maybeExit();
    });
    this.stdin.on('error', () => undefined);
    this.stdout.on('error', () => undefined);
  }

  get live(): boolean {
    return !this.#exited;
  }

  kill(signal: NodeJS.Signals): boolean {
    this.killed = true;
    this.#exit(null, signal);
    return true;
  }

  /** Dies as a SIGKILLed CLI does: mid-frame, nothing answered, nothing flushed after. */
  crash(): void {
    if (this.#exited) return;
    this.stdout.write('{"type":"assistant","message":{"id":"msg_cut","content":[{"type":"te');
    this.#exit(null, 'SIGKILL');
  }

  #onLine(line: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch {
      return;
    }
    if (frame.type === 'user' && typeof frame.uuid === 'string') {
      this.#queue.push(frame.uuid);
      this.#startNextTurn();
      return;
    }
    if (frame.type === 'control_response') {
      const response = frame.response as { request_id?: unknown } | undefined;
      const ask = this.#asks.get(String(response?.request_id));
      if (ask === undefined) return;
      this.#asks.delete(String(response?.request_id));
      ask.resolve();
      return;
    }
    if (frame.type !== 'control_request') return;
    const request = (frame.request ?? {}) as { subtype?: unknown; task_id?: unknown };
    const requestId = frame.request_id;
    switch (request.subtype) {
      case 'initialize':
        return this.#answer(requestId, { commands: [], models: [], account: {}, pid: 0 });
      case 'interrupt':
        this.#interrupt();
        return this.#answer(requestId, { still_queued: [] });
      case 'stop_task':
        this.#stopTask(String(request.task_id));
        return this.#answer(requestId, {});
      default:
        return this.#answer(requestId, {});
    }
  }

  #answer(requestId: unknown, response: Frame): void {
    this.#write({
      type: 'control_response',
      response: { subtype: 'success', request_id: requestId, response },
    });
  }

  #write(frame: Frame): void {
    if (this.#exited) return;
    this.stdout.write(JSON.stringify({ ...frame, session_id: this.#sessionId }) + '\n');
  }

  #after(ms: number, step: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (!this.#exited) step();
    }, ms);
    this.#timers.add(timer);
  }

  #pause(): number {
    return Math.floor(this.#plan.random() * this.#plan.maxStepMs);
  }

  #startNextTurn(): void {
    if (this.#turn !== undefined || this.#exited) return;
    const uuid = this.#queue.shift();
    if (uuid === undefined) return this.#maybeExit();
    this.#turn = uuid;
    const generation = ++this.#turnGeneration;
    this.#write({ type: 'system', subtype: 'init', cwd: '.', model: 'scripted', user_message_uuids: [uuid] });
    const random = this.#plan.random;
    const asks = Math.floor(random() * 3);
    const withTask = random() < 0.35;
    const steps: (() => Promise<void>)[] = [];
    for (let i = 0; i < asks; i += 1) steps.push(() => this.#ask(undefined));
    if (withTask) steps.push(() => Promise.resolve(this.#startTask()));
    const run = async (): Promise<void> => {
      for (const step of steps) {
        await new Promise<void>((resolve) => this.#after(this.#pause(), resolve));
        if (generation !== this.#turnGeneration) return;
        await step();
        if (generation !== this.#turnGeneration) return;
      }
      this.#after(this.#pause(), () => {
        if (generation === this.#turnGeneration) this.#endTurn('success');
      });
    };
    void run();
  }

  #endTurn(subtype: 'success' | 'error_during_execution', origin?: Frame): void {
    const uuid = this.#turn;
    if (uuid === undefined) return;
    this.#turn = undefined;
    this.#turnGeneration += 1;
    this.#write({
      type: 'result',
      subtype,
      is_error: subtype !== 'success',
      result: subtype === 'success' ? 'done' : '',
      num_turns: 1,
      duration_ms: 1,
      ...(uuid === '' ? {} : { user_message_uuids: [uuid], user_message_uuid: uuid }),
      ...(origin === undefined ? {} : { origin }),
    });
    this.#startNextTurn();
  }

  /** A permission request; settles when the host answers or the request is cancelled. */
  #ask(taskId: string | undefined): Promise<void> {
    const requestId = `req-${this.#prefix}-${++this.#next}`;
    const command = COMMANDS[Math.floor(this.#plan.random() * COMMANDS.length)]!;
    return new Promise((resolve) => {
      this.#asks.set(requestId, { taskId, resolve });
      this.#write({
        type: 'control_request',
        request_id: requestId,
        request: {
          subtype: 'can_use_tool',
          tool_name: 'Bash',
          input: { command, description: 'scripted' },
          tool_use_id: `toolu_${requestId}`,
          ...(taskId === undefined ? {} : { agent_id: taskId }),
        },
      });
    });
  }

  #startTask(): void {
    const id = `task-${this.#prefix}-${++this.#next}`;
    const toolUseId = `toolu_agent_${id}`;
    const task: Task = { id, stopped: false };
    this.#tasks.set(id, task);
    this.#write({
      type: 'assistant',
      parent_tool_use_id: null,
      message: {
        id: `msg_${id}`,
        content: [{ type: 'tool_use', id: toolUseId, name: 'Agent', input: { run_in_background: true } }],
      },
    });
    this.#write({
      type: 'system',
      subtype: 'task_started',
      task_id: id,
      tool_use_id: toolUseId,
      description: 'scripted helper',
      task_type: 'local_agent',
    });
    this.#tasksChanged();
    const work = async (): Promise<void> => {
      await new Promise<void>((resolve) => this.#after(this.#pause() * 2, resolve));
      if (!task.stopped) await this.#ask(id);
      await new Promise<void>((resolve) => this.#after(this.#pause(), resolve));
      if (!task.stopped) this.#finishTask(id, 'completed');
    };
    void work();
  }

  #finishTask(id: string, status: 'completed' | 'stopped'): void {
    const task = this.#tasks.get(id);
    if (task === undefined) return;
    task.stopped = true;
    this.#tasks.delete(id);
    this.#cancelAsks((ask) => ask.taskId === id);
    this.#write({
      type: 'system',
      subtype: 'task_notification',
      task_id: id,
      status,
      summary: `${id} ${status}`,
    });
    this.#tasksChanged();
    // A subagent that completes while nothing runs makes the CLI start a turn to report it.
    if (status === 'completed' && this.#turn === undefined && this.#queue.length === 0) {
      this.#turn = '';
      this.#write({ type: 'system', subtype: 'init', cwd: '.', model: 'scripted' });
      this.#after(this.#pause(), () => {
        if (this.#turn === '') this.#endTurn('success', { kind: 'task-notification' });
      });
    }
    this.#maybeExit();
  }

  #tasksChanged(): void {
    this.#write({
      type: 'system',
      subtype: 'background_tasks_changed',
      tasks: [...this.#tasks.keys()].map((task_id) => ({ task_id, task_type: 'local_agent' })),
    });
  }

  #cancelAsks(match: (ask: PendingAsk) => boolean): void {
    for (const [requestId, ask] of this.#asks) {
      if (!match(ask)) continue;
      this.#asks.delete(requestId);
      this.#write({ type: 'control_cancel_request', request_id: requestId });
      ask.resolve();
    }
  }

  /** As the real CLI: the turn ends, its requests are cancelled, background subagents are killed. */
  #interrupt(): void {
    for (const id of [...this.#tasks.keys()]) this.#finishTask(id, 'stopped');
    this.#cancelAsks(() => true);
    if (this.#turn !== undefined) this.#endTurn('error_during_execution');
  }

  #stopTask(id: string): void {
    this.#finishTask(id, 'stopped');
  }

  /** With its input ended and nothing left to do, the CLI exits 0. */
  #maybeExit(): void {
    if (!this.#inputEnded || this.#turn !== undefined || this.#tasks.size > 0 || this.#asks.size > 0) return;
    if (this.#queue.length > 0) return;
    this.#after(0, () => this.#exit(0, null));
  }

  #exit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited) return;
    this.#exited = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const ask of this.#asks.values()) ask.resolve();
    this.#asks.clear();
    this.#tasks.clear();
    this.stdout.end();
    this.exitCode = code;
    this.signalCode = signal;
    setImmediate(() => this.emit('exit', code, signal));
  }
}
