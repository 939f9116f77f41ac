// The scripted CLI of the supervisor-server benchmark: a stand-in for query() (the Supervisor's `query`
// option) that plays one turn per user message without a process. For `approvals` it raises permission
// requests through the supervisor's canUseTool, a fixed number in flight, and times each from the request
// to the reply; for `events` it writes assistant messages as fast as the supervisor reads them. It reports
// what it measured through `onTurn`.
import { setImmediate as nextMacrotask, setTimeout as delay } from 'node:timers/promises';

import { ControlChannelClosedError } from '../../src/protocol/errors.js';
import type { SDKMessage, SDKUserMessage } from '../../src/protocol/messages.js';
import type { Options } from '../../src/session/options.js';
import type { QueryFunction, SupervisedQuery } from '../../src/supervisor/index.js';
import { wallClock } from '../lib/fake-cli.js';

export type Script =
  | { readonly kind: 'approvals'; readonly count: number; readonly inFlight: number }
  | {
      /**
       * Requests a thread's rules answer (`ls …`, under an allow rule `Bash(ls:*)`) mixed with requests a
       * person answers (`touch …`): every `policyEvery`-th request is the policy's.
       */
      readonly kind: 'mixed';
      readonly count: number;
      readonly inFlight: number;
      readonly policyEvery: number;
    }
  | {
      readonly kind: 'events';
      readonly count: number;
      readonly textBytes: number;
      /** Messages per second, evenly spaced; absent, as fast as the supervisor reads them. */
      readonly perSecond?: number;
    };

export interface ApprovalsTurn {
  readonly kind: 'approvals';
  /** Wall clock (ms): the first request raised, the last reply received. */
  readonly firstRaisedAt: number;
  readonly lastReplyAt: number;
  /** Request → reply, as the CLI saw each one (ms). */
  readonly latenciesMs: number[];
  /** Replies that were not an allow (each a failure of the run). */
  readonly notAllowed: string[];
  /** This process's CPU from the first request to the last reply (µs). */
  readonly cpuUs: number;
}

export interface EventsTurn {
  readonly kind: 'events';
  /** Wall clock (ms): the first message handed to the supervisor; when it came back after the last. */
  readonly firstAppendAt: number;
  readonly lastAppendAt: number;
  /** This process's CPU time (user + system, µs) when the first message was handed over. */
  readonly cpuAtFirstAppendUs: number;
}

export interface MixedTurn {
  readonly kind: 'mixed';
  readonly firstRaisedAt: number;
  readonly lastReplyAt: number;
  /** Request → reply of the requests the policy answered (ms). */
  readonly policyLatenciesMs: number[];
  /** When the CLI heard each person's answer (wall clock, ms), by tool use id. */
  readonly answeredAt: Record<string, number>;
  readonly notAllowed: string[];
}

export type TurnReport = ApprovalsTurn | EventsTurn | MixedTurn;

/** The text of burst message `index`: `#<index> ` padded to `bytes` (clients check the index). */
export function burstText(index: number, bytes: number): string {
  const head = `#${index} `;
  return head + 'x'.repeat(Math.max(0, bytes - head.length));
}

/** Frames handed over per macrotask, as they would arrive from the CLI's stdout pipe in 64 KiB reads. */
const CHUNK_FRAMES = 64;

/** Request ids are unique in the process, across its CLIs (a run's clients match answers by them). */
let requestsMade = 0;

type Frame = Record<string, unknown>;
type Item = Frame | null;

class ScriptedCli implements SupervisedQuery {
  readonly closed: Promise<void>;
  readonly #options: Options;
  readonly #script: Script;
  readonly #onTurn: (report: TurnReport) => void;
  readonly #frames: Item[] = [];
  readonly #requests = new Set<AbortController>();
  /** Resolves when the reader comes back for the next frame after the one it was attached to. */
  readonly #consumed = new Map<Frame, () => void>();
  #wake: (() => void) | undefined;
  #markClosed!: () => void;

  constructor(
    prompt: AsyncIterable<SDKUserMessage>,
    options: Options,
    script: Script,
    onTurn: (report: TurnReport) => void,
  ) {
    this.#options = options;
    this.#script = script;
    this.#onTurn = onTurn;
    this.closed = new Promise((resolve) => (this.#markClosed = resolve));
    void (async () => {
      for await (const message of prompt) await this.#turn(String(message.uuid));
    })();
  }

  async #turn(uuid: string): Promise<void> {
    await this.#emit({
      type: 'system',
      subtype: 'init',
      session_id: 'bench-session',
      model: 'scripted',
      user_message_uuids: [uuid],
    });
    const kind = this.#script.kind;
    const report =
      kind === 'approvals'
        ? await this.#approvals()
        : kind === 'mixed'
          ? await this.#mixed()
          : await this.#events();
    await this.#emit({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'done',
      num_turns: 1,
      user_message_uuids: [uuid],
      user_message_uuid: uuid,
    });
    this.#onTurn(report);
  }

  async #approvals(): Promise<ApprovalsTurn> {
    if (this.#script.kind !== 'approvals') throw new Error('not an approvals script');
    const { count, inFlight } = this.#script;
    const canUseTool = this.#options.canUseTool;
    if (canUseTool === undefined) throw new Error('the supervisor passed no canUseTool');
    const latenciesMs: number[] = [];
    const notAllowed: string[] = [];
    let raised = 0;
    const cpuBefore = process.cpuUsage();
    const firstRaisedAt = wallClock();
    const lane = async (): Promise<void> => {
      while (raised < count) {
        const index = raised++;
        const requestId = `req-${++requestsMade}`;
        const controller = new AbortController();
        this.#requests.add(controller);
        const began = wallClock();
        try {
          const result = await canUseTool(
            'Bash',
            { command: `touch file-${index}`, description: 'A command the policy asks about' },
            { signal: controller.signal, toolUseID: `toolu_${requestId}`, requestId },
          );
          latenciesMs.push(wallClock() - began);
          if (result?.behavior !== 'allow')
            notAllowed.push(`${requestId}: ${result?.behavior ?? 'no answer'}`);
        } finally {
          this.#requests.delete(controller);
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    const lastReplyAt = wallClock();
    const cpu = process.cpuUsage(cpuBefore);
    return {
      kind: 'approvals',
      firstRaisedAt,
      lastReplyAt,
      latenciesMs,
      notAllowed,
      cpuUs: cpu.user + cpu.system,
    };
  }

  async #mixed(): Promise<MixedTurn> {
    if (this.#script.kind !== 'mixed') throw new Error('not a mixed script');
    const { count, inFlight, policyEvery } = this.#script;
    const canUseTool = this.#options.canUseTool;
    if (canUseTool === undefined) throw new Error('the supervisor passed no canUseTool');
    const policyLatenciesMs: number[] = [];
    const answeredAt: Record<string, number> = {};
    const notAllowed: string[] = [];
    let raised = 0;
    const firstRaisedAt = wallClock();
    const lane = async (): Promise<void> => {
      while (raised < count) {
        const index = raised++;
        const requestId = `req-${++requestsMade}`;
        const toolUseID = `toolu_${requestId}`;
        const byPolicy = index % policyEvery === 0;
        const controller = new AbortController();
        this.#requests.add(controller);
        const began = wallClock();
        try {
          const command = byPolicy ? `ls dir-${index}` : `touch file-${index}`;
          const result = await canUseTool(
            'Bash',
            { command, description: 'A command the policy or a person answers' },
            { signal: controller.signal, toolUseID, requestId },
          );
          const at = wallClock();
          if (byPolicy) policyLatenciesMs.push(at - began);
          else answeredAt[toolUseID] = at;
          if (result?.behavior !== 'allow')
            notAllowed.push(`${requestId}: ${result?.behavior ?? 'no answer'}`);
        } finally {
          this.#requests.delete(controller);
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    return {
      kind: 'mixed',
      firstRaisedAt,
      lastReplyAt: wallClock(),
      policyLatenciesMs,
      answeredAt,
      notAllowed,
    };
  }

  async #events(): Promise<EventsTurn> {
    if (this.#script.kind !== 'events') throw new Error('not an events script');
    const { count, textBytes, perSecond } = this.#script;
    const cpu = process.cpuUsage();
    const cpuAtFirstAppendUs = cpu.user + cpu.system;
    let firstAppendAt = Number.NaN;
    let last: Promise<void> = Promise.resolve();
    for (let index = 0; index < count; index += 1) {
      const frame: Frame = {
        type: 'assistant',
        parent_tool_use_id: null,
        message: { id: `msg_${index}`, content: [{ type: 'text', text: burstText(index, textBytes) }] },
      };
      if (index === 0) firstAppendAt = wallClock();
      else if (perSecond !== undefined) {
        // Paced: each message at its slot, one at a time (a stream below the log's capacity).
        await last;
        const wait = firstAppendAt + (index * 1000) / perSecond - wallClock();
        if (wait > 0) await delay(wait);
      }
      last = this.#emit(frame);
      if ((index + 1) % CHUNK_FRAMES === 0) {
        await last;
        await nextMacrotask();
      }
    }
    await last;
    return { kind: 'events', firstAppendAt, lastAppendAt: wallClock(), cpuAtFirstAppendUs };
  }

  /** Queues a frame; resolves once the supervisor has read it and asked for the next. */
  #emit(frame: Frame): Promise<void> {
    const consumed = new Promise<void>((resolve) => this.#consumed.set(frame, resolve));
    this.#push(frame);
    return consumed;
  }

  interrupt(): Promise<unknown> {
    return Promise.resolve({});
  }

  stopTask(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    for (const controller of this.#requests)
      controller.abort(new ControlChannelClosedError('the query was closed'));
    this.#push(null);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SDKMessage, void> {
    try {
      for (;;) {
        const next = this.#frames.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => (this.#wake = resolve));
          continue;
        }
        if (next === null) return;
        yield next as SDKMessage;
        this.#consumed.get(next)?.();
        this.#consumed.delete(next);
      }
    } finally {
      for (const resolve of this.#consumed.values()) resolve();
      this.#markClosed();
    }
  }

  #push(item: Item): void {
    this.#frames.push(item);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** A QueryFunction whose every process plays `script`, once per user message. */
export function scriptedQuery(script: Script, onTurn: (report: TurnReport) => void): QueryFunction {
  return ({ prompt, options }) => new ScriptedCli(prompt, options, script, onTurn);
}
