// A scripted mock of the Anthropic Messages API on 127.0.0.1, good enough to drive the real Claude Code CLI
// offline: POST /v1/messages (streaming and not), POST /v1/messages/count_tokens, API errors, delays and
// hanging replies. Every request is classified (classify-request.ts) and handed to the caller's script,
// which decides the reply from the conversation alone, so retries and concurrency cannot confuse it.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { classifyRequest, MalformedRequestError } from './classify-request.js';
import { defaultReply } from './default-reply.js';
import {
  HttpReplyError,
  parseJson,
  pause,
  readBody,
  RequestWaiters,
  sendJson,
  serveOnLoopback,
  untilAborted,
  write,
} from './mock-http.js';
import { MockLog } from './mock-log.js';
import type { MockScript, Reply, RequestContext, RequestRecord } from './mock-model-types.js';
import { errorBody, formatSse, renderMessage, replyProblem, sseEvents } from './mock-reply.js';
import type { IdSource } from './mock-reply.js';

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
  const waiters = new RequestWaiters(requests);
  let counter = 0;
  let messageIds = 0;
  let toolIds = 0;
  const ids: IdSource = {
    nextMessageId: () => `msg_mock_${String(++messageIds).padStart(4, '0')}`,
    nextToolUseId: () => `toolu_mock_${String(++toolIds).padStart(4, '0')}`,
  };

  const notify = (record: RequestRecord): void => waiters.notify(record);

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

  const handle = async (req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const record: RequestRecord = { n: ++counter, method: req.method ?? 'GET', path, done: false };
    requests.push(record);
    res.on('close', () => {
      record.done = true;
      log?.request(record);
      notify(record);
    });
    notify(record);
    try {
      if (req.method === 'POST' && path === '/v1/messages') await answerMessages(req, res, record, signal);
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

  const server = await serveOnLoopback(options.port ?? 0, handle, async () => log?.flush());

  const waitForRequest = (
    predicate: (record: RequestRecord) => boolean,
    waitOptions: { signal?: AbortSignal } = {},
  ): Promise<RequestRecord> => waiters.wait(predicate, waitOptions);

  return { url: `http://127.0.0.1:${server.port}`, requests, waitForRequest, close: server.close };
}
