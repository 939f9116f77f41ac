// The MCP transport between one in-process server and the CLI. Messages from the CLI arrive as control
// requests, so there is no byte stream: a CLI request is handed to the server and the server's response of
// the same id settles the waiting control request; everything else the server sends (notifications, its
// own requests to the client) goes to the CLI as an SDK→CLI `mcp_message` control request.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/sdk/types.js';
import {
  AbortError,
  ControlChannelClosedError,
  ProtocolError,
  TransportClosedError,
  toError,
} from '../protocol/errors.js';

type Pending = { resolve: (response: JSONRPCResponse) => void; reject: (error: Error) => void };

export class McpBridgeTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;

  readonly #serverName: string;
  readonly #sendToCli: (serverName: string, message: unknown) => Promise<void>;
  /** CLI requests awaiting the server's response, keyed `${id}`. Membership means "not settled yet". */
  readonly #pending = new Map<string, Pending>();
  #closed = false;

  constructor(serverName: string, sendToCli: (serverName: string, message: unknown) => Promise<void>) {
    this.#serverName = serverName;
    this.#sendToCli = sendToCli;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Called by the server for everything it emits. */
  send(message: JSONRPCMessage): Promise<void> {
    if (isResponse(message)) {
      // A response answers a CLI request; one with no waiter belongs to a request that was aborted.
      const key = message.id === undefined ? undefined : `${message.id}`;
      const waiter = key === undefined ? undefined : this.#pending.get(key);
      if (key !== undefined && waiter !== undefined) {
        this.#pending.delete(key);
        waiter.resolve(message);
      }
      return Promise.resolve();
    }
    const isNotification = !('id' in message);
    if (this.#closed) {
      return isNotification
        ? Promise.resolve()
        : Promise.reject(new TransportClosedError(`SDK MCP server ${this.#serverName} is closed`));
    }
    const sent = this.#forward(message);
    if (!isNotification) return sent; // the server's request() rejects to its caller
    // McpServer fires list_changed notifications without awaiting them, so a rejection here would be
    // unhandled. Report it through onerror instead.
    return sent.catch((error: unknown) => {
      this.onerror?.(toError(error));
    });
  }

  #forward(message: JSONRPCMessage): Promise<void> {
    try {
      return this.#sendToCli(this.#serverName, message);
    } catch (error) {
      return Promise.reject(toError(error));
    }
  }

  /** Hands a CLI request to the server and resolves with the server's response of the same id. */
  async request(message: JSONRPCRequest, signal: AbortSignal): Promise<JSONRPCResponse> {
    if (this.#closed) throw new ControlChannelClosedError('closed');
    if (signal.aborted) throw new AbortError();
    const key = `${message.id}`;
    if (this.#pending.has(key)) {
      throw new ProtocolError(`Duplicate in-flight request id ${key} for SDK MCP server ${this.#serverName}`);
    }
    const { promise: response, ...entry } = waiterFor();
    const onAbort = (): void => {
      if (this.#pending.get(key) !== entry) return;
      this.#pending.delete(key);
      entry.reject(new AbortError());
      // Tell the server too, so the tool handler's signal aborts and its late response is dropped.
      this.deliver({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: message.id, reason: 'The control request was cancelled' },
      });
    };
    this.#pending.set(key, entry);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      this.deliver(message);
      return await response;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.#pending.get(key) === entry) this.#pending.delete(key);
    }
  }

  /** Hands a notification or a response (to one of the server's own requests) to the server. */
  deliver(message: JSONRPCMessage): void {
    if (this.#closed) throw new ControlChannelClosedError('closed');
    this.onmessage?.(message);
  }

  /** Rejects every waiting CLI request and tells the server the connection is gone. Idempotent. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    const waiters = [...this.#pending.values()];
    this.#pending.clear();
    for (const waiter of waiters) waiter.reject(new ControlChannelClosedError('closed'));
    this.onclose?.();
    return Promise.resolve();
  }
}

function waiterFor(): Pending & { promise: Promise<JSONRPCResponse> } {
  let resolve!: Pending['resolve'];
  let reject!: Pending['reject'];
  const promise = new Promise<JSONRPCResponse>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function isResponse(message: JSONRPCMessage): message is JSONRPCResponse {
  return !('method' in message) && ('result' in message || 'error' in message);
}
