// A small vocabulary for mock scripts, so that a test reads like the conversation it scripts:
//
//   scenario()
//     .on('x').callTool('Bash', { command: 'touch f', description: 'touch' }).thenAnswer('done')
//     .subagent('sub').after(rootResultSeen).callTool('Read', { file_path: '/etc/hostname' }).thenReport('read it')
//     .build();
//
// A track is one conversation, picked by kind (main or subagent) and by the `[[marker]]` in the user message
// that started the turn — or, for prompts a person reads (a demo), by a phrase that message contains. Within a turn, the step is chosen by the number of tool round trips so far
// (`ctx.turnRounds`), never by how many requests arrived: a retried or concurrent request gets the same
// answer as the first one. Anything the scenario does not cover gets the mock's default reply.
import type { MockScript, Reply, ReplyBlock, RequestContext } from './mock-model-types.js';

/** Something to wait for before a step replies: a promise, or a function called when the request arrives. */
export type Awaitable = PromiseLike<unknown> | (() => unknown);

/** A text, or a function of the request that produces it. */
export type TextSource = string | ((ctx: RequestContext) => string);

export interface ToolCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly id?: string;
}

export interface StepOptions {
  /** A text block sent before the tool_use blocks (the model "thinking aloud"). */
  readonly text?: string;
  readonly delayMs?: number;
  readonly chunkDelayMs?: number;
}

export interface BackgroundAgentSpec {
  /** Put a `[[marker]]` in it to script the subagent with `.subagent(marker)`, or use `.subagent({ phrase })`. */
  readonly prompt: string;
  readonly description: string;
  /** Defaults to `general-purpose`. */
  readonly subagentType?: string;
  readonly model?: string;
}

interface Step {
  readonly reply: Reply | ((ctx: RequestContext) => Reply | Promise<Reply>);
  readonly waits: readonly Awaitable[];
  readonly failures?: { readonly times: number; readonly status: number; readonly message?: string };
  /** The reply ends the turn: no later step of this turn can be reached. */
  readonly final: boolean;
}

interface Turn {
  readonly steps: Step[];
}

interface Track {
  readonly label: string;
  readonly turn: Turn;
  notification?: Turn;
}

type Kind = 'main' | 'subagent';
const ANY = '\u0000any';
/** Tracks chosen by a phrase are kept under this prefix, apart from the markers. */
const PHRASE = '\u0000phrase:';

/** What picks a track: a `[[marker]]` name, or a phrase the turn's prompt contains. */
export type TrackMatch = string | { readonly phrase: string };

function checkMatch(method: string, match: TrackMatch | undefined): string {
  if (typeof match === 'object' && match !== null) {
    const { phrase } = match as { phrase?: unknown };
    if (typeof phrase !== 'string' || phrase.trim() === '')
      throw new TypeError(`scenario.${method}: a phrase is a non-empty string`);
    return `${PHRASE}${phrase}`;
  }
  return checkMarker(method, match);
}

function checkMarker(method: string, marker: string | undefined): string {
  if (marker === undefined) return ANY;
  if (typeof marker !== 'string' || marker === '' || /[[\]\r\n]/.test(marker)) {
    throw new TypeError(`scenario.${method}: a marker is a non-empty string without brackets or newlines`);
  }
  return marker;
}

function checkInput(method: string, input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError(`scenario.${method}: tool input must be an object`);
  }
}

function checkCalls(calls: unknown): void {
  if (!Array.isArray(calls) || calls.length === 0)
    throw new TypeError('scenario.callTools: expected at least one call');
  for (const call of calls as unknown[]) {
    const { name, input } = (call ?? {}) as { name?: unknown; input?: unknown };
    if (typeof name !== 'string' || name === '')
      throw new TypeError('scenario.callTools: a tool name is required');
    checkInput('callTools', input);
  }
}

function textOf(source: TextSource, ctx: RequestContext): string {
  return typeof source === 'function' ? source(ctx) : source;
}

export class ScenarioBuilder {
  readonly #tracks: Record<Kind, Map<string, Track>> = { main: new Map(), subagent: new Map() };
  #current: { track: Track; turn: Turn } | undefined;
  #waits: Awaitable[] = [];
  #failures: Step['failures'];
  #fallback: MockScript = () => null;

  /**
   * Scripts main-agent turns whose prompt carries `[[marker]]`, or contains `{ phrase }`; without either,
   * any other main turn. A marker is matched before a phrase, phrases in the order their tracks were made.
   */
  on(match?: TrackMatch): this {
    return this.#open('main', checkMatch('on', match));
  }

  /** Scripts subagents whose prompt carries `[[marker]]`, or contains `{ phrase }`; without either, any other. */
  subagent(match?: TrackMatch): this {
    return this.#open('subagent', checkMatch('subagent', match));
  }

  /** The following steps answer the root turns the CLI starts itself after a `<task-notification>`. */
  onTaskNotification(): this {
    this.#checkNoPending();
    const track = this.#require('onTaskNotification').track;
    if (track.notification !== undefined)
      throw new TypeError(`scenario: ${track.label} already has onTaskNotification()`);
    track.notification = { steps: [] };
    this.#current = { track, turn: track.notification };
    return this;
  }

  /** The next step waits for this (a promise, or a function called when its request arrives). */
  after(wait: Awaitable): this {
    if (typeof wait !== 'function' && typeof (wait as PromiseLike<unknown> | null)?.then !== 'function') {
      throw new TypeError('scenario.after: expected a promise or a function');
    }
    this.#waits.push(wait);
    return this;
  }

  /** The next step answers its first `times` requests with an API error; the CLI's retries then get the step. */
  failFirst(times: number, status: number, message?: string): this {
    if (!Number.isInteger(times) || times < 1)
      throw new TypeError('scenario.failFirst: times must be a positive integer');
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw new TypeError('scenario.failFirst: status must be 400..599');
    this.#failures = { times, status, ...(message === undefined ? {} : { message }) };
    return this;
  }

  /** One tool call; the turn continues when its result comes back. */
  callTool(name: string, input: Readonly<Record<string, unknown>>, options: StepOptions = {}): this {
    return this.callTools([{ name, input }], options);
  }

  /** Several tool calls in one assistant message (the CLI runs them and sends back all results at once). */
  callTools(calls: readonly ToolCall[], options: StepOptions = {}): this {
    checkCalls(calls);
    const lead: ReplyBlock[] = options.text === undefined ? [] : [{ type: 'text', text: options.text }];
    const uses: ReplyBlock[] = calls.map((call) => ({ type: 'tool_use', ...call }));
    return this.#step({ ...timing(options), content: [...lead, ...uses] }, false);
  }

  /** An `Agent` tool call with `run_in_background: true`. */
  launchBackgroundAgent(spec: BackgroundAgentSpec, options: StepOptions = {}): this {
    if (typeof spec?.prompt !== 'string' || typeof spec.description !== 'string') {
      throw new TypeError('scenario.launchBackgroundAgent: prompt and description are required strings');
    }
    const input = {
      description: spec.description,
      prompt: spec.prompt,
      subagent_type: spec.subagentType ?? 'general-purpose',
      run_in_background: true,
      ...(spec.model === undefined ? {} : { model: spec.model }),
    };
    return this.callTool('Agent', input, options);
  }

  /** A final text: the turn ends here (stop_reason end_turn). */
  thenAnswer(text: TextSource, options: Omit<StepOptions, 'text'> = {}): this {
    if (typeof text !== 'string' && typeof text !== 'function')
      throw new TypeError('scenario.thenAnswer: expected a text');
    const reply = (ctx: RequestContext): Reply => ({
      ...timing(options),
      content: [{ type: 'text', text: textOf(text, ctx) }],
    });
    return this.#step(reply, true);
  }

  /** The subagent's final report: the same as thenAnswer, named for what it is. */
  thenReport(text: TextSource, options: Omit<StepOptions, 'text'> = {}): this {
    return this.thenAnswer(text, options);
  }

  /** This step always answers with an API error (the CLI retries 5xx and 529, then gives up). */
  failWith(status: number, message?: string): this {
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw new TypeError('scenario.failWith: status must be 400..599');
    return this.#step({ status, ...(message === undefined ? {} : { error: message }) }, true);
  }

  /** This step starts a reply and never finishes it; the mock's close() ends it. */
  hang(content: readonly ReplyBlock[] = []): this {
    return this.#step({ content, hang: true }, true);
  }

  /** Any reply, fixed or computed from the request. A reply without tool_use blocks ends the turn. */
  reply(reply: Reply | ((ctx: RequestContext) => Reply | Promise<Reply>)): this {
    const final =
      typeof reply === 'function' ? false : !(reply.content ?? []).some((block) => block.type === 'tool_use');
    return this.#step(reply, final);
  }

  /** Answers whatever no track covers (side requests included). Defaults to the mock's default reply. */
  otherwise(script: MockScript): this {
    if (typeof script !== 'function') throw new TypeError('scenario.otherwise: expected a function');
    this.#fallback = script;
    return this;
  }

  build(): MockScript {
    if (this.#waits.length > 0 || this.#failures !== undefined) {
      throw new TypeError('scenario: after() or failFirst() must be followed by a step');
    }
    const tracks = { main: new Map(this.#tracks.main), subagent: new Map(this.#tracks.subagent) };
    const fallback = this.#fallback;
    // failFirst() counts per built script, so one builder can serve several mocks.
    const failuresUsed = new Map<Step, number>();
    return async (ctx) => {
      if (ctx.kind === 'side') return fallback(ctx);
      const byMarker = tracks[ctx.kind];
      const marker = ctx.isTaskNotification ? ctx.marker : ctx.turnMarker;
      // A CLI-started turn belongs to the conversation its first prompt began.
      const prompt = ctx.isTaskNotification ? ctx.firstUserText : ctx.turnText;
      const byPhrase = [...byMarker].find(
        ([key]) => key.startsWith(PHRASE) && prompt.includes(key.slice(PHRASE.length)),
      )?.[1];
      const candidates = [
        marker === undefined ? undefined : byMarker.get(marker),
        byPhrase,
        byMarker.get(ANY),
      ];
      const turns = candidates.map((track) => (ctx.isTaskNotification ? track?.notification : track?.turn));
      const step = turns.find((turn) => turn !== undefined)?.steps[ctx.turnRounds];
      return step === undefined ? fallback(ctx) : runStep(step, ctx, failuresUsed);
    };
  }

  #open(kind: Kind, marker: string): this {
    this.#checkNoPending();
    const shown = marker.startsWith(PHRASE) ? `{ phrase: '${marker.slice(PHRASE.length)}' }` : `'${marker}'`;
    const label = `${kind === 'main' ? 'on' : 'subagent'}(${marker === ANY ? '' : shown})`;
    if (this.#tracks[kind].has(marker)) throw new TypeError(`scenario: ${label} is already defined`);
    const track: Track = { label, turn: { steps: [] } };
    this.#tracks[kind].set(marker, track);
    this.#current = { track, turn: track.turn };
    return this;
  }

  #require(method: string): { track: Track; turn: Turn } {
    if (this.#current === undefined)
      throw new TypeError(`scenario.${method}: start a track with on() or subagent() first`);
    return this.#current;
  }

  #step(reply: Step['reply'], final: boolean): this {
    const { track, turn } = this.#require('step');
    if (turn.steps.at(-1)?.final === true) {
      throw new TypeError(
        `scenario: ${track.label} has already ended its turn; nothing after it can be reached`,
      );
    }
    turn.steps.push({
      reply,
      waits: this.#waits,
      final,
      ...(this.#failures === undefined ? {} : { failures: this.#failures }),
    });
    this.#waits = [];
    this.#failures = undefined;
    return this;
  }

  #checkNoPending(): void {
    if (this.#waits.length > 0 || this.#failures !== undefined) {
      throw new TypeError('scenario: after() or failFirst() must be followed by a step of the same track');
    }
  }
}

function timing(options: {
  delayMs?: number;
  chunkDelayMs?: number;
}): Pick<Reply, 'delayMs' | 'chunkDelayMs'> {
  return {
    ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
    ...(options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs }),
  };
}

async function runStep(step: Step, ctx: RequestContext, failuresUsed: Map<Step, number>): Promise<Reply> {
  for (const wait of step.waits) await (typeof wait === 'function' ? wait() : wait);
  const failures = step.failures;
  const used = failuresUsed.get(step) ?? 0;
  if (failures !== undefined && used < failures.times) {
    failuresUsed.set(step, used + 1);
    return {
      status: failures.status,
      ...(failures.message === undefined ? {} : { error: failures.message }),
    };
  }
  return typeof step.reply === 'function' ? step.reply(ctx) : step.reply;
}

/** Starts a scenario; finish it with build() and pass the result as the mock's script. */
export function scenario(): ScenarioBuilder {
  return new ScenarioBuilder();
}
