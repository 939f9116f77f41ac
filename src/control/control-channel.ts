// Correlation for the control protocol, and nothing else: ids, the pending map, inbound handlers,
// cancellation in both directions. It knows no domain (what a permission is, when stdin may close) and no
// transport (the owner passes `write` and feeds `receive`). See protocol/control.ts for the envelopes.
import {
  UNSUPPORTED_REQUEST_ERROR_CODE,
  controlCancelFrame,
  controlErrorFrame,
  controlRequestFrame,
  controlSuccessFrame,
  parseControlCancelRequestFrame,
  parseControlRequestFrame,
  parseControlResponseFrame,
  unsupportedSubtypeMessage,
} from '../protocol/control.js';
import type { ControlSuccessResponse } from '../protocol/control.js';
import {
  AbortError,
  CallbackError,
  ControlChannelClosedError,
  ControlRequestError,
  ProtocolError,
  RequestTimeoutError,
  TransportClosedError,
  WardenError,
  toError,
} from '../protocol/errors.js';
import { LazyAbort } from './lazy-abort.js';
import { excerptOf, isRecord } from '../protocol/validate.js';
import { createRequestIdGenerator } from './request-id.js';

export interface ControlChannelOptions {
  /** Writes one frame to the CLI; resolves when written, rejects if the transport is closed. */
  write: (frame: Record<string, unknown>) => Promise<void>;
  /**
   * A reply or cancel that could not be delivered, a handler that threw, a response with an unknown id:
   * the caller sees these, nothing is dropped silently. Defaults to process.emitWarning.
   */
  onError?: (error: WardenError) => void;
  /** Called whenever inFlightInbound or pendingOutbound changes (the input lifecycle watches this). */
  onActivity?: () => void;
}

/**
 * Answers one inbound request. `request` is the frame's `request` object, untouched (subtype included).
 * Resolve with the success payload (`undefined` sends `{}`); throw to send an error reply. `signal` aborts
 * when the CLI withdraws the request or the channel is disposed; no reply is written after that.
 */
export type InboundHandler = (
  request: Record<string, unknown>,
  ctx: { requestId: string; signal: AbortSignal },
) => Promise<Record<string, unknown> | undefined>;

/**
 * A handler resolves with this very object (compared by identity) when the request was answered another
 * way (the CLI heard from someone else): no reply is written, and the request stops counting as in flight.
 */
export const NO_REPLY: Readonly<Record<string, unknown>> = Object.freeze({});

export interface ControlRequestOptions {
  /** Give up after this long: rejects RequestTimeoutError and withdraws the request from the CLI. */
  timeoutMs?: number;
  /** Abort: rejects AbortError and withdraws the request from the CLI. */
  signal?: AbortSignal;
}

interface PendingRequest {
  readonly subtype: string;
  settled: boolean;
  resolve(response: ControlSuccessResponse): void;
  reject(error: WardenError): void;
}

interface InboundEntry {
  readonly subtype: string;
  readonly abort: LazyAbort;
  released: boolean;
}

/**
 * How many ids are remembered whose control_response is expected and ignored without a warning: requests
 * we gave up on (their late replies), and requests we answered (under --replay-user-messages the CLI echoes
 * our replies back).
 */
const IGNORED_IDS_KEPT = 1024;
/** setTimeout fires at once for anything larger. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export class ControlChannel {
  readonly #write: (frame: Record<string, unknown>) => Promise<void>;
  readonly #onError: ((error: WardenError) => void) | undefined;
  readonly #onActivity: (() => void) | undefined;
  readonly #nextId = createRequestIdGenerator();
  readonly #pending = new Map<string, PendingRequest>();
  readonly #abandoned = new Set<string>();
  readonly #answered = new Set<string>();
  readonly #inbound = new Map<string, InboundEntry>();
  readonly #handlers = new Map<string, InboundHandler>();
  #disposedWith: WardenError | undefined;

  constructor(options: ControlChannelOptions) {
    if (!isRecord(options)) throw new TypeError('ControlChannel options must be an object');
    if (typeof options.write !== 'function') throw new TypeError('options.write must be a function');
    if (options.onError !== undefined && typeof options.onError !== 'function')
      throw new TypeError('options.onError must be a function');
    if (options.onActivity !== undefined && typeof options.onActivity !== 'function')
      throw new TypeError('options.onActivity must be a function');
    this.#write = options.write;
    this.#onError = options.onError;
    this.#onActivity = options.onActivity;
  }

  /** Inbound requests whose reply is not yet written (a withdrawn one stops counting at once). */
  get inFlightInbound(): number {
    return this.#inbound.size;
  }

  /** True while the inbound request `requestId` is being served (its reply is not yet written). */
  isServing(requestId: string): boolean {
    return this.#inbound.has(requestId);
  }

  /** Our requests without a response. */
  get pendingOutbound(): number {
    return this.#pending.size;
  }

  /**
   * Sends `{type:'control_request', request_id, request:{subtype, ...body}}` and resolves with the
   * response payload (`response.response` of a success, `{}` if absent). Rejects ControlRequestError for
   * an error reply, RequestTimeoutError, AbortError, or the dispose cause. A failed write does not settle
   * it (it is reported): as in the official SDK, a request written to a CLI that just died is rejected by
   * the close that follows, with the same error as every other pending request.
   */
  request(
    subtype: string,
    body?: Record<string, unknown>,
    opts?: ControlRequestOptions,
  ): Promise<Record<string, unknown>> {
    return this.requestEnvelope(subtype, body, opts).then((envelope) => envelope.response ?? {});
  }

  /**
   * As request(), but resolves with the whole success response: besides `response`, the `initialize`
   * reply carries `pending_permission_requests` and its siblings, which the session must re-dispatch.
   */
  requestEnvelope(
    subtype: string,
    body: Record<string, unknown> = {},
    opts: ControlRequestOptions = {},
  ): Promise<ControlSuccessResponse> {
    if (typeof subtype !== 'string' || subtype === '')
      throw new TypeError('subtype must be a non-empty string');
    if (!isRecord(body)) throw new TypeError('body must be an object');
    if (body.subtype !== undefined && body.subtype !== subtype)
      throw new TypeError(`body.subtype (${excerptOf(body.subtype)}) contradicts subtype ${subtype}`);
    if (!isRecord(opts)) throw new TypeError('opts must be an object');
    const { timeoutMs, signal } = opts;
    if (
      timeoutMs !== undefined &&
      !(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)
    )
      throw new TypeError(`opts.timeoutMs must be a number of milliseconds between 1 and ${MAX_TIMEOUT_MS}`);
    if (signal !== undefined && !(signal instanceof AbortSignal))
      throw new TypeError('opts.signal must be an AbortSignal');

    if (this.#disposedWith !== undefined) return Promise.reject(this.#disposedWith);
    if (signal?.aborted === true) return Promise.reject(abortedError(subtype, signal));
    return this.#send(subtype, { subtype, ...body }, timeoutMs, signal);
  }

  /** Registers the handler for an inbound subtype; returns an unregister function. One per subtype. */
  handle(subtype: string, handler: InboundHandler): () => void {
    if (typeof subtype !== 'string' || subtype === '')
      throw new TypeError('subtype must be a non-empty string');
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    if (this.#handlers.has(subtype)) throw new TypeError(`a handler for ${subtype} is already registered`);
    this.#handlers.set(subtype, handler);
    return () => {
      if (this.#handlers.get(subtype) === handler) this.#handlers.delete(subtype);
    };
  }

  /**
   * Feed every frame read from the CLI. Returns true if it was a control frame consumed here
   * (control_request, control_response, control_cancel_request), false otherwise. Never throws.
   */
  receive(frame: Record<string, unknown>): boolean {
    if (!isRecord(frame)) return false;
    switch (frame.type) {
      case 'control_response':
        this.#onResponse(frame);
        return true;
      case 'control_request':
        this.#onRequest(frame);
        return true;
      case 'control_cancel_request':
        this.#onCancel(frame);
        return true;
      default:
        return false;
    }
  }

  /**
   * Rejects every pending request with `cause`, aborts every inbound handler's signal (their replies are
   * not written), and makes later request() calls reject with `cause`. Idempotent.
   */
  dispose(cause: WardenError): void {
    if (!WardenError.isWardenError(cause)) throw new TypeError('dispose() needs a WardenError as its cause');
    if (this.#disposedWith !== undefined) return;
    this.#disposedWith = cause;
    for (const pending of this.#pending.values()) pending.reject(cause);
    for (const [requestId, entry] of this.#inbound) {
      entry.abort.abort(cause);
      this.#release(requestId, entry);
    }
  }

  // ------------------------------------------------------------------------------------------ outbound

  async #send(
    subtype: string,
    request: Record<string, unknown>,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ControlSuccessResponse> {
    const requestId = this.#nextId();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<ControlSuccessResponse>((resolve, reject) => {
        const pending: PendingRequest = {
          subtype,
          settled: false,
          resolve: (response) => {
            pending.settled = true;
            resolve(response);
          },
          reject: (error) => {
            pending.settled = true;
            reject(error);
          },
        };
        const giveUp = (error: WardenError): void => {
          if (pending.settled) return;
          pending.reject(error);
          this.#abandon(requestId, subtype);
        };
        this.#pending.set(requestId, pending);
        this.#activity();
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => giveUp(new RequestTimeoutError(subtype, timeoutMs)), timeoutMs);
        }
        if (signal !== undefined) {
          onAbort = () => giveUp(abortedError(subtype, signal));
          signal.addEventListener('abort', onAbort, { once: true });
        }
        this.#writeFrame(controlRequestFrame(requestId, request)).catch((error: unknown) => {
          if (pending.settled) return;
          const what = `Could not write control request ${subtype}; it settles when the channel closes`;
          this.#report(new TransportClosedError(what, { cause: error }));
        });
      });
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
      this.#pending.delete(requestId);
      this.#activity();
    }
  }

  /** We stopped waiting (timeout, abort): remember the id, and tell the CLI it may stop working on it. */
  #abandon(requestId: string, subtype: string): void {
    remember(this.#abandoned, requestId);
    if (this.#disposedWith !== undefined) return;
    this.#writeFrame(controlCancelFrame(requestId)).catch((error: unknown) => {
      this.#report(
        new TransportClosedError(`Could not withdraw control request ${subtype} (${requestId})`, {
          cause: error,
        }),
      );
    });
  }

  #onResponse(frame: Record<string, unknown>): void {
    const parsed = parseControlResponseFrame(frame);
    if (parsed instanceof ProtocolError) {
      // A malformed reply to one of our requests still settles it: otherwise its caller waits forever.
      const id = isRecord(frame.response) ? frame.response.request_id : undefined;
      const pending = typeof id === 'string' ? this.#pending.get(id) : undefined;
      if (pending !== undefined && !pending.settled) pending.reject(parsed);
      else this.#report(parsed);
      return;
    }
    const { response } = parsed;
    const pending = this.#pending.get(response.request_id);
    if (pending === undefined || pending.settled) {
      const expected = this.#abandoned.has(response.request_id) || this.#answered.delete(response.request_id);
      if (expected || this.#disposedWith !== undefined) return;
      this.#report(
        new ProtocolError(`control_response for unknown request_id ${response.request_id}`, excerptOf(frame)),
      );
      return;
    }
    if (response.subtype === 'success') pending.resolve(response);
    else pending.reject(new ControlRequestError(pending.subtype, response.error, response.error_code));
  }

  // ------------------------------------------------------------------------------------------- inbound

  #onRequest(frame: Record<string, unknown>): void {
    const parsed = parseControlRequestFrame(frame);
    let requestId: string;
    let subtype: string;
    if (parsed instanceof ProtocolError) {
      this.#report(parsed);
      // If we can tell whom to answer, answer with the error: the CLI would otherwise wait for a reply.
      if (typeof frame.request_id !== 'string' || frame.request_id === '') return;
      requestId = frame.request_id;
      subtype = '(malformed)';
    } else {
      requestId = parsed.request_id;
      subtype = parsed.request.subtype;
    }
    if (this.#disposedWith !== undefined) {
      const reason = `control request ${subtype} (${requestId}) arrived after the channel closed; it gets no reply`;
      this.#report(new ControlChannelClosedError(reason, { cause: this.#disposedWith }));
      return;
    }
    if (this.#inbound.has(requestId)) {
      this.#report(
        new ProtocolError(
          `Duplicate control_request id ${requestId} while the first is in flight; ignored`,
          excerptOf(frame),
        ),
      );
      return;
    }
    const entry: InboundEntry = { subtype, abort: new LazyAbort(), released: false };
    this.#inbound.set(requestId, entry);
    this.#activity();
    void this.#serve(requestId, entry, parsed instanceof ProtocolError ? parsed : parsed.request);
  }

  /** Produces and writes the reply to one inbound request. Never rejects. */
  async #serve(
    requestId: string,
    entry: InboundEntry,
    request: Record<string, unknown> | ProtocolError,
  ): Promise<void> {
    try {
      const reply =
        request instanceof ProtocolError
          ? controlErrorFrame(requestId, request.message)
          : await this.#dispatch(requestId, entry, request);
      if (reply === undefined || entry.abort.aborted) return;
      // Before the write: the echo can come back before the write's callback runs.
      remember(this.#answered, requestId);
      try {
        await this.#writeFrame(reply);
      } catch (error) {
        const what = `Could not write the reply to control request ${entry.subtype} (${requestId})`;
        this.#report(new TransportClosedError(what, { cause: error }));
      }
    } finally {
      this.#release(requestId, entry);
    }
  }

  async #dispatch(
    requestId: string,
    entry: InboundEntry,
    request: Record<string, unknown>,
  ): Promise<Record<string, unknown> | undefined> {
    const handler = this.#handlers.get(entry.subtype);
    if (handler === undefined) {
      return controlErrorFrame(
        requestId,
        unsupportedSubtypeMessage(entry.subtype),
        UNSUPPORTED_REQUEST_ERROR_CODE,
      );
    }
    const { abort } = entry;
    try {
      const result = await handler(request, {
        requestId,
        get signal() {
          return abort.signal;
        },
      });
      if (result === NO_REPLY) return undefined;
      if (result !== undefined && !isRecord(result))
        throw new TypeError(`the handler must resolve to an object or undefined, not ${typeof result}`);
      return controlSuccessFrame(requestId, result ?? {});
    } catch (error) {
      // Withdrawn or disposed: nobody waits for this reply, and the abort is the handler's expected exit.
      if (abort.aborted) return undefined;
      const message = toError(error).message;
      const failure = `The ${entry.subtype} handler failed for control request ${requestId}: ${message}`;
      this.#report(new CallbackError(`${entry.subtype} handler`, failure, { cause: error }));
      return controlErrorFrame(requestId, message);
    }
  }

  #onCancel(frame: Record<string, unknown>): void {
    const parsed = parseControlCancelRequestFrame(frame);
    if (parsed instanceof ProtocolError) return this.#report(parsed);
    const entry = this.#inbound.get(parsed.request_id);
    // Unknown id: our reply crossed the cancel on the wire, which is normal.
    if (entry === undefined) return;
    entry.abort.abort(
      new AbortError(`The CLI withdrew control request ${entry.subtype} (${parsed.request_id})`),
    );
    this.#release(parsed.request_id, entry);
  }

  #release(requestId: string, entry: InboundEntry): void {
    if (entry.released) return;
    entry.released = true;
    if (this.#inbound.get(requestId) === entry) this.#inbound.delete(requestId);
    this.#activity();
  }

  // ------------------------------------------------------------------------------------------- plumbing

  #writeFrame(frame: Record<string, unknown>): Promise<void> {
    try {
      return Promise.resolve(this.#write(frame));
    } catch (error) {
      return Promise.reject(toError(error));
    }
  }

  #activity(): void {
    if (this.#onActivity === undefined) return;
    try {
      this.#onActivity();
    } catch (error) {
      this.#report(
        new CallbackError('onActivity', `onActivity threw: ${toError(error).message}`, { cause: error }),
      );
    }
  }

  #report(error: WardenError): void {
    if (this.#onError === undefined) return process.emitWarning(error);
    try {
      this.#onError(error);
    } catch (thrown) {
      process.emitWarning(toError(thrown));
    }
  }
}

/** Adds an id to a bounded set, forgetting the oldest. */
function remember(ids: Set<string>, id: string): void {
  ids.add(id);
  if (ids.size <= IGNORED_IDS_KEPT) return;
  const oldest = ids.values().next().value;
  if (oldest !== undefined) ids.delete(oldest);
}

function abortedError(subtype: string, signal: AbortSignal): AbortError {
  return new AbortError(`Control request ${subtype} was aborted`, { cause: signal.reason });
}
