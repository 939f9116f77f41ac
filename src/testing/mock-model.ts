// A scripted mock of the Anthropic Messages API on 127.0.0.1, good enough to drive the real Claude Code CLI
// offline: POST /v1/messages (streaming and not), POST /v1/messages/count_tokens, API errors, delays and
// hanging replies. Every request is classified (classify-request.ts) and handed to the caller's script,
// which decides the reply from the conversation alone, so retries and concurrency cannot confuse it.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { classifyRequest, MalformedRequestError } from './classify-request.js';
import { defaultReply } from './default-reply.js';
import { MockLog } from './mock-log.js';
import type { MockScript, Reply, RequestContext, RequestRecord } from './mock-model-types.js';
import { errorBody, formatSse, renderMessage, replyProblem, sseEvents } from './mock-reply.js';
import type { IdSource } from './mock-reply.js';

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface MockModelOptions {
  /** Decides each reply; omitted or returning null means the default reply. */
  readonly script?: MockScript;
  /** 0 (the default) picks a free port. The mock always binds 127.0.0.1. */
  readonly port?: number;
  /** When set, requests.jsonl and bodies/NNNN.json are written there. */
  readonly logDir?: string;
}

export interface MockModel {
  /** `http://127.0.0.1:<port>`: the value for ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** One record per HTTP request in arrival order, updated as each request progresses. */
  readonly requests: readonly RequestRecord[];
  /** Resolves with the first request (past or future) the predicate accepts. */
  waitForRequest(
    predicate: (record: RequestRecord) => boolean,
    options?: { signal?: AbortSignal },
  ): Promise<RequestRecord>;
  /** Ends hanging replies, drops every connection and stops the server. Idempotent. */
  close(): Promise<void>;
}

interface Waiter {
  readonly predicate: (record: RequestRecord) => boolean;
  readonly resolve: (record: RequestRecord) => void;
}

class HttpReplyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function validate(options: MockModelOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('startMockModel: options must be an object');
  const { script, port, logDir } = options;
  if (script !== undefined && typeof script !== 'function')
    throw new TypeError('startMockModel: script must be a function');
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new TypeError(`startMockModel: port must be an integer in 0..65535, got ${String(port)}`);
  }
  if (logDir !== undefined && (typeof logDir !== 'string' || logDir === '')) {
    throw new TypeError('startMockModel: logDir must be a non-empty string');
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        reject(new HttpReplyError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpReplyError(
      400,
      `malformed JSON body: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  return new Promise((resolve) => {
    res.write(text, (error) => resolve(error === undefined || error === null));
  });
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function describeReply(reply: Reply): string[] {
  if (reply.status !== undefined && reply.status >= 400) return [`error ${reply.status}`];
  const blocks = (reply.content ?? []).map((block) =>
    block.type === 'text' ? 'text' : `tool_use:${block.name}`,
  );
  return reply.hang === true ? [...blocks, 'hang'] : blocks;
}

function summarize(ctx: RequestContext): Partial<RequestRecord> {
  const { kind, sideKind, agentId, parentAgentId, marker, turnMarker, rounds, turnRounds } = ctx;
  const { isTaskNotification, toolResults, lastUserText, toolNames, stream } = ctx;
  return Object.fromEntries(
    Object.entries({
      kind,
      sideKind,
      agentId,
      parentAgentId,
      marker,
      turnMarker,
      rounds,
      turnRounds,
      isTaskNotification,
      toolResults,
      lastUserText,
      toolNames,
      stream,
    }).filter(([, value]) => value !== undefined),
  );
}

/** Starts the mock on 127.0.0.1. Bad options throw a TypeError synchronously. */
export function startMockModel(options: MockModelOptions = {}): Promise<MockModel> {
  validate(options);
  return listen(options);
}

async function listen(options: MockModelOptions): Promise<MockModel> {
  const script: MockScript = options.script ?? (() => null);
  const log = options.logDir === undefined ? undefined : new MockLog(options.logDir);
  const requests: RequestRecord[] = [];
  const waiters = new Set<Waiter>();
  const inFlight = new Set<AbortController>();
  const closing = new AbortController();
  let counter = 0;
  let messageIds = 0;
  let toolIds = 0;
  const ids: IdSource = {
    nextMessageId: () => `msg_mock_${String(++messageIds).padStart(4, '0')}`,
    nextToolUseId: () => `toolu_mock_${String(++toolIds).padStart(4, '0')}`,
  };

  const notify = (record: RequestRecord): void => {
    for (const waiter of waiters) {
      if (waiter.predicate(record)) {
        waiters.delete(waiter);
        waiter.resolve(record);
      }
    }
  };

  const sendJson = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const answerMessages = async (
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    signal: AbortSignal,
  ) => {
    const raw = await readBody(req);
    const body = parseJson(raw);
    log?.body(record.n, req.headers, body);
    let ctx: RequestContext;
    try {
      ctx = classifyRequest(record.n, req.headers, body);
    } catch (error) {
      if (error instanceof MalformedRequestError) throw new HttpReplyError(400, error.message);
      throw error;
    }
    Object.assign(record, summarize(ctx));
    notify(record);

    let reply: Reply;
    try {
      reply = (await script(ctx)) ?? defaultReply(ctx);
    } catch (error) {
      throw new HttpReplyError(
        500,
        `mock script threw: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const problem = replyProblem(reply);
    if (problem !== undefined)
      throw new HttpReplyError(500, `mock script returned an invalid reply: ${problem}`);
    record.reply = describeReply(reply);
    if (!(await pause(reply.delayMs ?? 0, signal))) return;

    const requestId = `req_mock_${String(record.n).padStart(4, '0')}`;
    const headers = { 'request-id': requestId, ...reply.headers };
    if (reply.status !== undefined && reply.status >= 400) {
      record.status = reply.status;
      sendJson(res, reply.status, errorBody(reply.status, reply.error, requestId), headers);
      return;
    }
    const message = renderMessage(reply, ctx.model, ids);
    record.status = 200;
    notify(record);
    if (!ctx.stream) {
      if (reply.hang === true) return untilAborted(signal);
      sendJson(res, 200, message, headers);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
    let first = true;
    for (const event of sseEvents(message, reply.hang === true)) {
      if (!first && !(await pause(reply.chunkDelayMs ?? 0, signal))) return;
      first = false;
      if (!(await write(res, formatSse(event)))) return;
    }
    if (reply.hang === true) return untilAborted(signal);
    res.end();
  };

  const answerCountTokens = async (req: IncomingMessage, res: ServerResponse, record: RequestRecord) => {
    const raw = await readBody(req);
    const body = parseJson(raw);
    if (typeof body !== 'object' || body === null)
      throw new HttpReplyError(400, 'request body must be a JSON object');
    log?.body(record.n, req.headers, body);
    record.status = 200;
    sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const record: RequestRecord = { n: ++counter, method: req.method ?? 'GET', path, done: false };
    requests.push(record);
    const controller = new AbortController();
    inFlight.add(controller);
    res.on('close', () => {
      controller.abort();
      inFlight.delete(controller);
      record.done = true;
      log?.request(record);
      notify(record);
    });
    notify(record);
    try {
      if (req.method === 'POST' && path === '/v1/messages')
        await answerMessages(req, res, record, controller.signal);
      else if (req.method === 'POST' && path === '/v1/messages/count_tokens')
        await answerCountTokens(req, res, record);
      else throw new HttpReplyError(404, `mock: no route for ${record.method} ${path}`);
    } catch (error) {
      const status = error instanceof HttpReplyError ? error.status : 500;
      record.status = status;
      record.error = error instanceof Error ? error.message : String(error);
      try {
        sendJson(
          res,
          status,
          errorBody(status, record.error, `req_mock_${String(record.n).padStart(4, '0')}`),
        );
      } finally {
        // A body we never read (413) or a half-written stream cannot be reused: drop the connection.
        if (!res.writableEnded) res.destroy();
      }
    }
  };

  // handle() answers its own failures; this only guards against a failure while answering one.
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  // Each in-flight request's signal also fires on close(), which ends hanging replies and pending delays.
  closing.signal.addEventListener('abort', () => inFlight.forEach((controller) => controller.abort()), {
    once: true,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      closing.abort();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
      // Responses of destroyed sockets report 'close' (and queue their log line) on the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      await log?.flush();
    })();
    return closed;
  };

  const waitForRequest = (
    predicate: (record: RequestRecord) => boolean,
    waitOptions: { signal?: AbortSignal } = {},
  ): Promise<RequestRecord> => {
    const found = requests.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    const { signal } = waitOptions;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        waiters.delete(waiter);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('waitForRequest aborted'));
      };
      const waiter: Waiter = {
        predicate,
        resolve: (record) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(record);
        },
      };
      if (signal?.aborted === true) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.add(waiter);
    });
  };

  return { url: `http://127.0.0.1:${port}`, requests, waitForRequest, close };
}
