// One `codex app-server` process: spawned in its own process group with an explicit environment (the
// child transport's guarantees: exit noticed at once, every line delivered first, the tree cleaned up),
// then `initialize` and `initialized`. Threads and turns are requests; the server's own requests
// (approvals, questions) go to the caller's handler, whose answer is sent back under the server's id.
import { toError } from '../../protocol/errors.js';
import { spawnTransport, type ChildExit } from '../../transport/child-transport.js';
import { JsonRpcPeer, type FrameTransport, type JsonRpcId } from './json-rpc.js';
import type {
  InitializeResponse,
  ServerRequest,
  ThreadResumeParams,
  ThreadResumeResponse,
  ThreadStartParams,
  ThreadStartResponse,
  TurnInterruptParams,
  TurnStartParams,
  TurnSteerParams,
  TurnSteerResponse,
  TurnStartResponse,
} from './protocol.generated.js';
import { resolveCodexExecutable } from './resolve-codex.js';

/** A notification of the server, e.g. `turn/completed` or `item/commandExecution/outputDelta`. */
export interface CodexNotification {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A server request the generated protocol does not know yet: passed through untouched. */
export interface UnknownServerRequest {
  readonly method: string;
  readonly id: JsonRpcId;
  readonly params: unknown;
}

export interface CodexAppServerOptions {
  /** The codex binary; resolveCodexExecutable() by default (WARDEN_CODEX_EXECUTABLE, then the pinned one). */
  readonly codexPath?: string;
  readonly cwd: string;
  /** Replaces process.env. Give it CODEX_HOME (where Codex keeps its config, threads and logs). */
  readonly env: Record<string, string | undefined>;
  /** `-c key=value` overrides, in order (see codexProviderConfig). */
  readonly config?: readonly string[];
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Answers the server's requests: resolve with the result (e.g. `{ decision: 'accept' }`). */
  readonly onServerRequest: (request: ServerRequest | UnknownServerRequest) => Promise<unknown>;
  readonly onNotification?: (notification: CodexNotification) => void;
  readonly onStderr?: (text: string) => void;
}

/** The process under the client: piped (spawnTransport) or detached (a FIFO and a spool). */
export interface CodexTransport extends FrameTransport {
  readonly pid: number;
  readonly exited: Promise<ChildExit>;
  close(): Promise<void>;
  /** Lets go of a detached process, leaving it running (absent: a piped child, which cannot be). */
  detach?(): Promise<void>;
  stderrTail(): string | Promise<string>;
}

/** What a client needs besides its transport; `skip` holds request ids already answered (re-attach). */
export interface CodexClientHandlers {
  readonly onServerRequest: CodexAppServerOptions['onServerRequest'];
  readonly onNotification?: CodexAppServerOptions['onNotification'];
  readonly skip?: ReadonlySet<string>;
  /** Where our request ids start (json-rpc.ts). */
  readonly firstId?: number;
}

interface NotificationWaiter {
  readonly predicate: (notification: CodexNotification) => boolean;
  readonly resolve: (notification: CodexNotification) => void;
  readonly reject: (error: Error) => void;
}

/** Starts the app-server and completes the handshake. Rejects with SpawnError, or with why it ended. */
export async function startCodexAppServer(options: CodexAppServerOptions): Promise<CodexAppServer> {
  // The host chooses the binary (its WARDEN_CODEX_EXECUTABLE), not the environment given to the child.
  const command = options.codexPath ?? resolveCodexExecutable();
  const args = ['app-server', ...(options.config ?? []).flatMap((entry) => ['-c', entry])];
  const transport = await spawnTransport({
    command,
    args,
    cwd: options.cwd,
    env: options.env,
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
  });
  const server = new CodexAppServer(transport, options);
  return handshake(server, options);
}

/** `initialize` then `initialized`; closes the server when either fails. */
export async function handshake(
  server: CodexAppServer,
  options: Pick<CodexAppServerOptions, 'clientInfo'>,
): Promise<CodexAppServer> {
  try {
    server.initialized = await server.request<InitializeResponse>('initialize', {
      clientInfo: { title: null, ...(options.clientInfo ?? { name: 'warden', version: '0' }) },
      capabilities: { experimentalApi: true, requestAttestation: false },
    });
    await server.notify('initialized');
  } catch (error) {
    await server.close();
    throw toError(error);
  }
  return server;
}

export class CodexAppServer {
  readonly pid: number;
  /** Resolves once, when the process exits. */
  readonly exited: Promise<ChildExit>;
  /** The server's answer to `initialize` (its user agent, CODEX_HOME, platform). */
  initialized: InitializeResponse | undefined;

  readonly #transport: CodexTransport;
  readonly #peer: JsonRpcPeer;
  readonly #waiters = new Set<NotificationWaiter>();
  #ended: Error | undefined;

  /** @internal Use startCodexAppServer(). */
  constructor(transport: CodexTransport, options: CodexClientHandlers) {
    this.#transport = transport;
    this.pid = transport.pid;
    this.exited = transport.exited;
    this.#peer = new JsonRpcPeer(
      transport,
      {
        // A request answered before a re-attach is in the spool too: it must not be asked again.
        onRequest: (method, params, id) =>
          options.skip?.has(String(id)) === true
            ? new Promise<never>(() => undefined)
            : options.onServerRequest({ method, id, params }),
        onNotification: (method, params) => {
          const notification = { method, params: (params ?? {}) as Record<string, unknown> };
          options.onNotification?.(notification);
          for (const waiter of this.#waiters) {
            if (!waiter.predicate(notification)) continue;
            this.#waiters.delete(waiter);
            waiter.resolve(notification);
          }
        },
        onClose: (error) => {
          this.#ended = error ?? new Error('the Codex app-server ended');
          for (const waiter of this.#waiters) waiter.reject(this.#ended);
          this.#waiters.clear();
        },
      },
      options.firstId,
    );
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.#peer.request<T>(method, params);
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.#peer.notify(method, params);
  }

  startThread(params: ThreadStartParams): Promise<ThreadStartResponse> {
    return this.request('thread/start', params);
  }

  /** Loads a thread Codex stored under CODEX_HOME (a new process can resume one an earlier one started). */
  resumeThread(params: ThreadResumeParams): Promise<ThreadResumeResponse> {
    return this.request('thread/resume', params);
  }

  startTurn(params: TurnStartParams): Promise<TurnStartResponse> {
    return this.request('turn/start', params);
  }

  /**
   * Adds user input to the turn in progress: the model reads it with its next request. The one way to
   * give a decline its reason, as Codex's decisions carry none.
   */
  steerTurn(params: TurnSteerParams): Promise<TurnSteerResponse> {
    return this.request('turn/steer', params);
  }

  interruptTurn(params: TurnInterruptParams): Promise<unknown> {
    return this.request('turn/interrupt', params);
  }

  /** The first notification from now on that the predicate accepts; rejects if the server ends first. */
  nextNotification(predicate: (notification: CodexNotification) => boolean): Promise<CodexNotification> {
    if (this.#ended !== undefined) return Promise.reject(this.#ended);
    return new Promise((resolve, reject) => this.#waiters.add({ predicate, resolve, reject }));
  }

  /** The last 8 KiB of the server's stderr. */
  async stderrTail(): Promise<string> {
    return this.#transport.stderrTail();
  }

  /**
   * Lets go of a detached app-server, leaving it running with its requests pending for the next host
   * (attachCodexAppServer). A piped one cannot outlive its host: it is closed.
   */
  detach(): Promise<void> {
    return this.#transport.detach?.() ?? this.close();
  }

  /** Ends stdin, then SIGTERM, then SIGKILL, and cleans up the process group. Idempotent. */
  close(): Promise<void> {
    return this.#transport.close();
  }
}
