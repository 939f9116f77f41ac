// JSON-RPC 2.0 over the app-server's stdio, one JSON object a line (the same framing as the Claude CLI's
// stream-json, so the child transport carries it). Correlates our requests with their responses, hands
// the server's requests to one handler whose result (or failure) is sent back under the server's id, and
// notifications to another. When the process ends every request still pending fails with why.
import { ControlRequestError, TransportClosedError, toError } from '../../protocol/errors.js';

/** What the peer reads frames from and writes them to: the piped child, or a detached one's FIFO and spool. */
export interface FrameTransport {
  frames(): AsyncIterable<Record<string, unknown>>;
  send(frame: unknown): Promise<void>;
}

/** A request id as the app-server writes it (it numbers its own requests from 0). */
export type JsonRpcId = number | string;

export interface JsonRpcHandlers {
  /** A request from the server; resolve with the result to send, reject to answer with an error. */
  readonly onRequest: (method: string, params: unknown, id: JsonRpcId) => Promise<unknown>;
  readonly onNotification: (method: string, params: unknown) => void;
  /** The read loop ended: null when the process ended cleanly, else the error (ProcessExitError, …). */
  readonly onClose: (error: Error | null) => void;
}

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

type Frame = Record<string, unknown>;

export class JsonRpcPeer {
  readonly #transport: FrameTransport;
  readonly #handlers: JsonRpcHandlers;
  readonly #pending = new Map<JsonRpcId, Pending>();
  #nextId = 1;
  #closed: Error | undefined;

  /**
   * `firstId`: where our request ids start. A host that re-attaches reads the spool from its start, old
   * responses included: its ids must not meet the earlier host's.
   */
  constructor(transport: FrameTransport, handlers: JsonRpcHandlers, firstId = 1) {
    this.#nextId = firstId;
    this.#transport = transport;
    this.#handlers = handlers;
    void this.#read();
  }

  /** Sends a request; resolves with its result, rejects with ControlRequestError for an error answer. */
  request<T>(method: string, params: unknown): Promise<T> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
      this.#transport.send({ jsonrpc: '2.0', id, method, params }).catch((error: unknown) => {
        this.#pending.delete(id);
        reject(toError(error));
      });
    });
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.#transport.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  async #read(): Promise<void> {
    let ending: Error | null = null;
    try {
      for await (const frame of this.#transport.frames()) this.#dispatch(frame);
    } catch (error) {
      ending = toError(error);
    }
    this.#closed = ending ?? new TransportClosedError('the Codex app-server ended');
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(this.#closed);
    }
    this.#handlers.onClose(ending);
  }

  #dispatch(frame: Frame): void {
    const { id, method } = frame;
    const hasId = typeof id === 'number' || typeof id === 'string';
    if (typeof method === 'string') {
      if (hasId) void this.#answer(id, method, frame['params']);
      else this.#handlers.onNotification(method, frame['params']);
      return;
    }
    if (!hasId) return;
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    const error = frame['error'] as { code?: unknown; message?: unknown } | undefined;
    if (error === undefined) {
      pending.resolve(frame['result']);
      return;
    }
    const message = typeof error.message === 'string' ? error.message : 'failed';
    const code = typeof error.code === 'number' || typeof error.code === 'string' ? String(error.code) : '';
    pending.reject(new ControlRequestError(pending.method, message, code));
  }

  async #answer(id: JsonRpcId, method: string, params: unknown): Promise<void> {
    let reply: Frame;
    try {
      reply = { id, result: await this.#handlers.onRequest(method, params, id) };
    } catch (error) {
      reply = { id, error: { code: -32603, message: toError(error).message } };
    }
    // The process may be gone by the time a person answers: nothing is left to tell.
    await this.#transport.send({ jsonrpc: '2.0', ...reply }).catch(() => undefined);
  }
}
