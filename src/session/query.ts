// query(): one CLI process, driven over stream-json, shaped like the official Agent SDK's Query.
//
// Three loops meet here: the reader (frames from the CLI → control channel or the caller's queue), the
// writer of the caller's input, and the input lifecycle that decides when stdin may close. Every way
// out (the CLI exits, close(), abort, a spawn failure) goes through #finish, once.
import { ControlChannel } from '../control/control-channel.js';
import {
  AbortError,
  ControlChannelClosedError,
  ErrorResultError,
  InputClosedError,
  ProcessExitError,
  WardenError,
  toError,
} from '../protocol/errors.js';
import type { PermissionMode } from '../protocol/control.js';
import type { OutboundControlSubtype } from '../protocol/control-requests.js';
import type { SDKControlSetPermissionModeResponse } from '../protocol/control-responses.js';
import type { SDKMessage, SDKUserMessage } from '../protocol/messages.js';
import type {
  AccountInfo,
  McpServerStatus,
  ModelInfo,
  SDKControlInitializeResponse,
  SDKControlInterruptResponse,
  SlashCommand,
} from '../protocol/sdk-types.js';
import type { CliTransport } from '../transport/cli-transport.js';
import { AttachHistory, dispatchPending } from './attach.js';
import { HookRegistry } from './hook-registry.js';
import { buildInitializeRequest, userMessage } from './initialize-request.js';
import { InputLifecycle } from './input-lifecycle.js';
import { McpBridge } from './mcp-bridge.js';
import { MessageQueue } from './message-queue.js';
import type { McpServerConfig, Options } from './options.js';
import { validateOptions } from './validate-options.js';
import { QueryControls } from './query-controls.js';
import { createPermissionHandler } from './permission-handler.js';
import { registerDialogHandlers } from './dialog-handlers.js';
import { sdkMcpServersOf, spawnCli } from './spawn-cli.js';
import { checkMcpServersApplied, withAwaitInitializeHint } from './mcp-delivery-check.js';
import { deliveryOf, type LaunchFacts } from './option-delivery.js';

const PERMISSION_MODES: ReadonlySet<string> = new Set<PermissionMode>([
  'default',
  'acceptEdits',
  'bypassPermissions',
  'plan',
  'dontAsk',
  'auto',
]);

export type Prompt = string | AsyncIterable<SDKUserMessage>;

/** Why and when Warden stopped writing to the CLI (its stdin closed), as `Query.inputClosed` reports it. */
export type InputClosed =
  /** Nothing could still ask: the caller's input ended, every turn had its result, no task or request was open. */
  | { reason: 'settled' }
  /**
   * The opt-in `maxInputWaitMs` ceiling closed stdin although something could still ask (`openReasons`); a
   * request that comes later cannot be answered. `onWarning` receives an `InputClosedError` too.
   */
  | { reason: 'max_input_wait'; openReasons: string[]; message: string }
  /** The query ended first (`close()`, `return()`, an abort, the CLI exited or failed to start). */
  | { reason: 'query_ended' };

interface Live {
  transport: CliTransport;
  channel: ControlChannel;
  history: AttachHistory;
  facts: LaunchFacts;
  /** Settles when the prompt may be written: at once, or after the answer to `initialize` took the servers. */
  promptGate: Promise<void>;
}

const DEFAULT_BUFFERED_MESSAGES = 256;

export function query({ prompt, options = {} }: { prompt: Prompt; options?: Options }): Query {
  if (
    typeof prompt !== 'string' &&
    (typeof prompt !== 'object' || prompt === null || !(Symbol.asyncIterator in prompt))
  )
    throw new TypeError('prompt must be a string or an AsyncIterable of user messages');
  validateOptions(options);
  return new Query(prompt, options);
}

export class Query extends QueryControls implements AsyncGenerator<SDKMessage, void> {
  readonly #options: Options;
  readonly #queue: MessageQueue<SDKMessage>;
  readonly #lifecycle = new InputLifecycle();
  readonly #hooks: HookRegistry;
  readonly #mcp: McpBridge;
  readonly #live: Promise<Live>;
  #initialize: Promise<Record<string, unknown>> | undefined;
  #redelivered: Promise<string[]> | undefined;
  /** Set once the CLI is running; the synchronous paths (lifecycle, finish) read it. */
  #settledLive: Live | undefined;
  #lastResult: Record<string, unknown> | undefined;
  /** The CLI was given its MCP servers over stdin (decided with the command line). */
  #mcpViaInitialize = false;
  #inputEnded = false;
  #finished = false;
  #closing = false;
  #detached = false;
  /** Settles once a detached transport let go (a write under way finished). */
  #letGo: Promise<void> = Promise.resolve();
  #recheckTimer: NodeJS.Timeout | undefined;
  #recheckAt: number | undefined;
  #ceilingTimer: NodeJS.Timeout | undefined;
  readonly #onAbort = (): void => this.#abort();
  #resolveClosed!: () => void;
  /**
   * Warden: settles once the query has ended and the CLI process, and everything it started, is gone.
   * Never rejects. Useful after close() or an abort, whose iteration ends before the CLI has exited.
   */
  readonly closed: Promise<void> = new Promise((resolve) => (this.#resolveClosed = resolve));
  #resolvePid!: (pid: number | undefined) => void;
  /**
   * Warden: the CLI's pid, as soon as it is spawned; undefined when it never was. Never rejects. A host
   * that records it can find the process again after it crashed itself (the CLI leads its own group).
   */
  readonly pid: Promise<number | undefined> = new Promise((resolve) => (this.#resolvePid = resolve));
  #resolveInputClosed!: (closed: InputClosed) => void;
  /**
   * Warden: settles once the CLI's stdin is closed, saying why — the information the official SDK does not
   * give (it closes stdin on its own schedule). Never rejects. The message stream itself carries only
   * what the official SDK's does; see docs/input-lifecycle.md.
   */
  readonly inputClosed: Promise<InputClosed> = new Promise((resolve) => (this.#resolveInputClosed = resolve));

  constructor(prompt: Prompt, options: Options) {
    super();
    this.#options = options;
    this.#queue = new MessageQueue(options.maxBufferedMessages ?? DEFAULT_BUFFERED_MESSAGES);
    this.#hooks = new HookRegistry(options.hooks);
    this.#mcp = new McpBridge({
      servers: sdkMcpServersOf(options.mcpServers),
      sendToCli: async (serverName, message) => {
        const { channel } = await this.#live;
        await channel.request('mcp_message', { server_name: serverName, message });
      },
    });
    this.#lifecycle.inputOpened();
    this.#live = this.#start();
    this.#live.then(
      ({ promptGate }) =>
        promptGate.then(
          () => this.#writePrompt(prompt),
          (error: unknown) => this.#finish(this.#describeFailure(toError(error))),
        ),
      (error: unknown) => {
        this.#resolvePid(undefined);
        this.#finish(toError(error));
      },
    );
    const signal = options.abortController?.signal;
    if (signal?.aborted) queueMicrotask(this.#onAbort);
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  async #start(): Promise<Live> {
    await this.#mcp.start();
    const { transport, facts } = await spawnCli(this.#options, (warning) => this.#warn(warning));
    // A CLI this query joins (attaching) started long ago: its answer says nothing about servers.
    this.#mcpViaInitialize =
      deliveryOf(this.#options, facts).mcpServersViaInitialize && transport.attaching !== true;
    this.#resolvePid(transport.pid);
    const history = new AttachHistory(transport.attaching === true);
    const channel = new ControlChannel({
      write: (frame) => {
        history.noteWritten(frame);
        return transport.send(frame);
      },
      onError: (error) => this.#warn(error),
      onActivity: () => this.#maybeEndInput(),
    });
    this.#registerHandlers(channel);
    const live: Live = { transport, channel, history, facts, promptGate: Promise.resolve() };
    this.#settledLive = live;
    if (this.#finished) {
      // Detached before the transport came: let go of it as detach() would have.
      if (this.#detached) this.#letGo = this.#detachFrom(transport);
      else await transport.close();
      return live;
    }
    // initialize is always the first line the CLI reads; the prompt follows without waiting for the reply.
    // Its answer lists the requests the CLI still waits on: none for a new CLI, those an earlier host left
    // unanswered for one this host joins.
    const envelope = channel.requestEnvelope(
      'initialize',
      buildInitializeRequest(this.#options, this.#hooks.initializeConfig(), this.#mcp.serverNames, facts),
    );
    const dispatched = envelope.then((answer) => ({
      ids: dispatchPending(channel, answer),
      response: answer.response ?? {},
    }));
    this.#initialize = dispatched.then(({ response }) => response);
    this.#redelivered = dispatched.then(({ ids }) => ids);
    this.#initialize.catch(() => undefined);
    this.#redelivered.catch(() => undefined);
    // Servers sent over stdin: the first prompt waits for the CLI to say it took them (as the official SDK).
    if (this.#mcpViaInitialize)
      live.promptGate = this.#initialize.then((response) => {
        const tooOld = checkMcpServersApplied(response, (text, code) => process.emitWarning(text, { code }));
        if (tooOld !== undefined) throw tooOld;
      });
    void this.#read(live);
    return live;
  }

  #registerHandlers(channel: ControlChannel): void {
    const { canUseTool } = this.#options;
    channel.handle(
      'can_use_tool',
      canUseTool === undefined
        ? () => Promise.reject(new Error('canUseTool callback is not provided.'))
        : createPermissionHandler(canUseTool, (warning) => this.#warn(warning)),
    );
    channel.handle('hook_callback', this.#hooks.handle);
    channel.handle('mcp_message', (request, ctx) => this.#mcp.handle(request, ctx.signal));
    registerDialogHandlers(channel, this.#options);
  }

  async #read({ transport, channel, history }: Live): Promise<void> {
    try {
      for await (const frame of transport.frames()) {
        if (history.skips(frame)) continue;
        if (channel.receive(frame)) continue;
        if (frame.type === 'keep_alive') continue;
        this.#lifecycle.observe(frame);
        if (frame.type === 'result') this.#onResult(frame);
        this.#maybeEndInput();
        // State frames the CLI marks as ours are consumed, as the official SDK does.
        if (
          frame.type === 'system' &&
          frame.subtype === 'session_state_changed' &&
          frame.sdk_host_only === true
        )
          continue;
        await this.#queue.push(frame as SDKMessage);
      }
      this.#finish(undefined);
    } catch (error) {
      this.#finish(this.#describeFailure(toError(error)));
    }
  }

  #onResult(frame: Record<string, unknown>): void {
    this.#lastResult = frame;
    const ceiling = this.#options.maxInputWaitMs;
    if (ceiling === undefined) return;
    clearTimeout(this.#ceilingTimer);
    this.#ceilingTimer = setTimeout(() => this.#ceilingReached(ceiling), ceiling).unref();
  }

  /** The CLI's own error text beats a bare exit code, as in the official SDK. */
  #describeFailure(failure: Error): Error {
    const error = this.#mcpViaInitialize ? withAwaitInitializeHint(failure) : failure;
    const result = this.#lastResult;
    if (!(error instanceof ProcessExitError) || result?.is_error !== true) return error;
    const errors = Array.isArray(result.errors)
      ? result.errors.map((e) => String(e))
      : [typeof result.result === 'string' ? result.result : 'unknown error'];
    return new ErrorResultError(errors, error);
  }

  async #writePrompt(prompt: Prompt): Promise<void> {
    try {
      if (typeof prompt === 'string') await this.#writeUserMessage(userMessage(prompt));
      else await this.#pipeInput(prompt);
    } catch (error) {
      if (!this.#closing && !this.#finished) this.#warn(toWardenError(error, 'writing the prompt failed'));
    } finally {
      this.#lifecycle.inputClosed();
      this.#maybeEndInput();
    }
  }

  async #pipeInput(input: AsyncIterable<SDKUserMessage>): Promise<void> {
    for await (const message of input) {
      if (this.#closing || this.#finished) break;
      await this.#writeUserMessage(message);
    }
  }

  async #writeUserMessage(message: Record<string, unknown>): Promise<void> {
    const { transport } = await this.#live;
    if (message.type === 'user') this.#lifecycle.userMessageWritten();
    const verbatim = this.#options.verbatimPrompts === true && message.type === 'user';
    await transport.send(verbatim ? { ...message, client_composed: true } : message);
  }

  #maybeEndInput(): void {
    if (this.#inputEnded || this.#finished) return;
    const live = this.#settledLive;
    if (live === undefined) return;
    const inFlight = live.channel.inFlightInbound + live.channel.pendingOutbound;
    if (this.#lifecycle.isSettled(inFlight)) return this.#endInput(live, { reason: 'settled' });
    // Only the grace after a task notification changes with time alone: look again when it ends.
    const recheckAt = this.#lifecycle.graceEndsAt;
    if (recheckAt !== undefined && recheckAt !== this.#recheckAt) {
      clearTimeout(this.#recheckTimer);
      this.#recheckAt = recheckAt;
      this.#recheckTimer = setTimeout(() => {
        this.#recheckAt = undefined;
        this.#maybeEndInput();
      }, recheckAt - Date.now()).unref();
    }
  }

  #endInput(live: Live, why: InputClosed): void {
    this.#inputEnded = true;
    this.#resolveInputClosed(why);
    clearTimeout(this.#ceilingTimer);
    clearTimeout(this.#recheckTimer);
    live.transport.endInput();
  }

  #ceilingReached(ceiling: number): void {
    const live = this.#settledLive;
    if (this.#inputEnded || this.#finished || live === undefined) return;
    const inFlight = live.channel.inFlightInbound + live.channel.pendingOutbound;
    const { reasons } = this.#lifecycle.openReasons(inFlight);
    if (reasons.includes('the caller input is open')) return;
    const message = `Input to the CLI closed after maxInputWaitMs (${ceiling} ms) although ${reasons.join(', ')}`;
    this.#warn(new InputClosedError(message));
    this.#endInput(live, { reason: 'max_input_wait', openReasons: reasons, message });
  }

  #warn(warning: WardenError): void {
    if (this.#options.onWarning !== undefined) this.#options.onWarning(warning);
    else process.emitWarning(warning);
  }

  #abort(): void {
    this.#shutdown(new AbortError('Claude Code process aborted by user'));
  }

  /** Ends everything at once: the caller asked for it (close, return, abort). */
  #shutdown(error: Error | undefined): void {
    if (this.#closing) return;
    this.#closing = true;
    if (error === undefined) this.#queue.discard();
    this.#finish(error);
  }

  #finish(error: Error | undefined): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#resolveInputClosed({ reason: 'query_ended' });
    clearTimeout(this.#ceilingTimer);
    clearTimeout(this.#recheckTimer);
    this.#options.abortController?.signal.removeEventListener('abort', this.#onAbort);
    const cause =
      error instanceof WardenError
        ? error
        : new ControlChannelClosedError('the CLI exited', { cause: error });
    const live = this.#settledLive;
    live?.channel.dispose(this.#closing ? new ControlChannelClosedError('the query was closed') : cause);
    this.#queue.end(error);
    // Iteration ends at once; the CLI's own shutdown (stdin EOF → SIGTERM → SIGKILL) settles `closed`.
    const transportClosed = this.#live.then(
      ({ transport }) => (this.#detached ? this.#letGo : transport.close()),
      () => undefined,
    );
    void Promise.allSettled([this.#mcp.close(), transportClosed]).then(() => this.#resolveClosed());
  }

  // --- AsyncGenerator ---

  next(): Promise<IteratorResult<SDKMessage, void>> {
    return this.#queue.next();
  }

  return(): Promise<IteratorResult<SDKMessage, void>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<SDKMessage, void>> {
    this.close();
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  // --- Control methods (official names) ---

  /** Closes the query at once: the CLI is stopped and iteration ends. */
  close(): void {
    this.#shutdown(undefined);
  }

  /**
   * Warden: lets go of the CLI without ending it, where the transport can (see Options.cliTransport):
   * iteration ends, requests in flight get no answer from this query, and the CLI waits for the next
   * host. Throws TypeError when the query has no such transport (yet).
   */
  detach(): void {
    const transport = this.#settledLive?.transport;
    // Before the transport exists, only one the caller provides (Options.cliTransport) may be detachable.
    if (transport === undefined ? this.#options.cliTransport === undefined : transport.detach === undefined)
      throw new TypeError('this query cannot detach from its CLI');
    if (this.#closing) return;
    this.#detached = true;
    if (transport !== undefined) this.#letGo = this.#detachFrom(transport);
    this.#shutdown(undefined);
  }

  /** Lets go of the transport; one that cannot (a custom transport without detach) is closed. */
  #detachFrom(transport: CliTransport): Promise<void> {
    if (transport.detach === undefined) return transport.close();
    return Promise.resolve(transport.detach()).catch(() => undefined);
  }

  async interrupt(): Promise<SDKControlInterruptResponse | undefined> {
    const response = await this.#request('interrupt');
    return Array.isArray(response.still_queued) ? (response as SDKControlInterruptResponse) : undefined;
  }

  /**
   * Resolves with the mode now in effect (not always the one asked for), or undefined when the CLI's
   * answer names none (older CLIs) or one outside PermissionMode.
   */
  async setPermissionMode(mode: PermissionMode): Promise<SDKControlSetPermissionModeResponse | undefined> {
    const answer = await this.#request('set_permission_mode', { mode });
    // The CLI's own name for 'default' is 'manual'.
    const now = answer.mode === 'manual' ? 'default' : answer.mode;
    return typeof now === 'string' && PERMISSION_MODES.has(now) ? { mode: now as PermissionMode } : undefined;
  }

  async setModel(model?: string): Promise<void> {
    await this.#request('set_model', model === undefined ? {} : { model });
  }

  async stopTask(taskId: string): Promise<void> {
    await this.#request('stop_task', { task_id: taskId });
  }

  async mcpServerStatus(): Promise<McpServerStatus[]> {
    const response = await this.#request('mcp_status');
    return Array.isArray(response.mcpServers) ? (response.mcpServers as McpServerStatus[]) : [];
  }

  override async initializationResult(): Promise<SDKControlInitializeResponse> {
    await this.#live;
    if (this.#initialize === undefined) throw new ControlChannelClosedError('the query was closed');
    // The CLI's reply, untouched; typed as the official SDK types it.
    return (await this.#initialize) as SDKControlInitializeResponse;
  }

  /**
   * Warden: the request ids the CLI still waited on when this query initialized (the initialize answer's
   * `pending_permission_requests` and siblings), once they have been dispatched to their handlers
   * (canUseTool). Empty for a CLI this query started; for one it joined, what an earlier host left
   * unanswered. Rejects like initializationResult() when the CLI never answered.
   */
  async redeliveredRequests(): Promise<string[]> {
    await this.#live;
    if (this.#redelivered === undefined) throw new ControlChannelClosedError('the query was closed');
    return this.#redelivered;
  }

  /**
   * Sends `initialize` again to the running CLI (after a gap in the transport): the answer lists the
   * permission requests the CLI still waits on, and each is handed to canUseTool again (one already in
   * flight here is not dispatched twice). Resolves with the fresh answer; initializationResult() keeps
   * the first.
   */
  async reinitialize(): Promise<SDKControlInitializeResponse> {
    if (this.#finished) throw new ControlChannelClosedError('the query has ended');
    const { channel, facts } = await this.#live;
    const answer = await channel.requestEnvelope(
      'initialize',
      buildInitializeRequest(this.#options, this.#hooks.initializeConfig(), this.#mcp.serverNames, facts),
    );
    dispatchPending(channel, answer);
    return (answer.response ?? {}) as SDKControlInitializeResponse;
  }

  async supportedCommands(): Promise<SlashCommand[]> {
    const init = await this.initializationResult();
    return Array.isArray(init.commands) ? init.commands : [];
  }

  async supportedModels(): Promise<ModelInfo[]> {
    const init = await this.initializationResult();
    return Array.isArray(init.models) ? init.models : [];
  }

  async accountInfo(): Promise<AccountInfo> {
    return (await this.initializationResult()).account;
  }

  /** Writes more user messages; stdin stays open until this input ends too. */
  async streamInput(input: AsyncIterable<SDKUserMessage>): Promise<void> {
    this.#lifecycle.inputOpened();
    try {
      await this.#pipeInput(input);
    } finally {
      this.#lifecycle.inputClosed();
      this.#maybeEndInput();
    }
  }

  protected override control(
    subtype: OutboundControlSubtype,
    body?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.#request(subtype, body);
  }

  protected override replaceSdkServers(
    servers: Record<string, McpServerConfig>,
  ): Promise<Record<string, Record<string, unknown>>> {
    return this.#mcp.replaceServers(sdkMcpServersOf(servers));
  }

  async #request(subtype: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.#finished) throw new ControlChannelClosedError('the query has ended');
    const { channel } = await this.#live;
    return channel.request(subtype, body);
  }
}

function toWardenError(error: unknown, context: string): WardenError {
  if (error instanceof WardenError) return error;
  return new ControlChannelClosedError(context, { cause: error });
}
