// A scripted mock of the OpenAI Responses API on 127.0.0.1, good enough to drive the real Codex CLI offline:
// POST /v1/responses streams the events Codex reads (mock-responses-events.ts), with assistant text,
// exec_command calls (shell commands) and apply_patch calls as the script decides from the conversation
// alone (classify-responses.ts); API errors, delays and hanging replies too. Codex is pointed at it with a
// model provider whose base_url is `url` (codexMockArgs in agents/codex builds the overrides).
import type { IncomingMessage, ServerResponse } from 'node:http';

import { classifyResponsesRequest, MalformedResponsesRequest } from './classify-responses.js';
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
import { describeItems, formatResponsesSse, responseEvents } from './mock-responses-events.js';
import type { ResponsesIds } from './mock-responses-events.js';
import type {
  ResponsesContext,
  ResponsesRecord,
  ResponsesReply,
  ResponsesScript,
} from './mock-responses-types.js';

/** The text of the default reply, when the script returns null. */
export const DEFAULT_RESPONSES_TEXT = 'Done.';

export interface MockResponsesOptions {
  /** Decides each reply; omitted or returning null means one assistant text, DEFAULT_RESPONSES_TEXT. */
  readonly script?: ResponsesScript;
  /** 0 (the default) picks a free port. The mock always binds 127.0.0.1. */
  readonly port?: number;
  /** When set, requests.jsonl and bodies/NNNN.json are written there. */
  readonly logDir?: string;
}

export interface MockResponses {
  /** `http://127.0.0.1:<port>/v1`: the base_url of the model provider. */
  readonly url: string;
  /** One record per HTTP request in arrival order, updated as each request progresses. */
  readonly requests: readonly ResponsesRecord[];
  /** Resolves with the first request (past or future) the predicate accepts. */
  waitForRequest(
    predicate: (record: ResponsesRecord) => boolean,
    options?: { signal?: AbortSignal },
  ): Promise<ResponsesRecord>;
  /** Ends hanging replies, drops every connection and stops the server. Idempotent. */
  close(): Promise<void>;
}

function validate(options: MockResponsesOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('startMockResponses: options must be an object');
  const { script, port, logDir } = options;
  if (script !== undefined && typeof script !== 'function')
    throw new TypeError('startMockResponses: script must be a function');
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new TypeError(`startMockResponses: port must be an integer in 0..65535, got ${String(port)}`);
  if (logDir !== undefined && (typeof logDir !== 'string' || logDir === ''))
    throw new TypeError('startMockResponses: logDir must be a non-empty string');
}

function errorBody(status: number, message: string): Record<string, unknown> {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}

function replyProblem(reply: unknown): string | undefined {
  if (typeof reply !== 'object' || reply === null) return 'a reply must be an object';
  const { items, status } = reply as ResponsesReply;
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599))
    return `status must be an HTTP status, got ${String(status)}`;
  if (items !== undefined && !Array.isArray(items)) return 'items must be an array';
  const kinds = new Set(['text', 'exec', 'patch', 'function']);
  const bad: unknown = (items ?? []).find(
    (item: unknown) => !kinds.has((item as { type?: string } | null)?.type ?? ''),
  );
  return bad === undefined ? undefined : `unknown item ${JSON.stringify(bad)}`;
}

/** Starts the mock on 127.0.0.1. Bad options throw a TypeError synchronously. */
export function startMockResponses(options: MockResponsesOptions = {}): Promise<MockResponses> {
  validate(options);
  return listen(options);
}

async function listen(options: MockResponsesOptions): Promise<MockResponses> {
  const script: ResponsesScript = options.script ?? (() => null);
  const log = options.logDir === undefined ? undefined : new MockLog(options.logDir);
  const requests: ResponsesRecord[] = [];
  const waiters = new RequestWaiters(requests);
  const counters = new Map<string, number>();
  const ids: ResponsesIds = {
    next: (prefix) => {
      const value = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, value);
      return `${prefix}_mock_${String(value).padStart(4, '0')}`;
    },
  };
  let counter = 0;

  const decide = async (ctx: ResponsesContext): Promise<ResponsesReply> => {
    let reply: ResponsesReply;
    try {
      reply = (await script(ctx)) ?? { items: [{ type: 'text', text: DEFAULT_RESPONSES_TEXT }] };
    } catch (error) {
      throw new HttpReplyError(
        500,
        `mock script threw: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const problem = replyProblem(reply);
    if (problem !== undefined)
      throw new HttpReplyError(500, `mock script returned an invalid reply: ${problem}`);
    return reply;
  };

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    record: ResponsesRecord,
    signal: AbortSignal,
  ): Promise<void> => {
    const body = parseJson(await readBody(req));
    log?.body(record.n, req.headers, body);
    let ctx: ResponsesContext;
    try {
      ctx = classifyResponsesRequest(record.n, req.headers, body);
    } catch (error) {
      if (error instanceof MalformedResponsesRequest) throw new HttpReplyError(400, error.message);
      throw error;
    }
    const { threadId, turnText, turnMarker, toolOutputs } = ctx;
    Object.assign(record, { threadId, turnText, turnMarker, toolOutputs });
    waiters.notify(record);

    const reply = await decide(ctx);
    record.reply = describeItems(reply);
    if (!(await pause(reply.delayMs ?? 0, signal))) return;
    if (reply.status !== undefined && reply.status >= 400) {
      record.status = reply.status;
      sendJson(res, reply.status, errorBody(reply.status, reply.error ?? `mock: HTTP ${reply.status}`));
      return;
    }
    record.status = 200;
    waiters.notify(record);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of responseEvents(reply, ctx.model, ids)) {
      if (!(await write(res, formatResponsesSse(event)))) return;
    }
    if (reply.hang === true) return untilAborted(signal);
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const record: ResponsesRecord = { n: ++counter, method: req.method ?? 'GET', path, done: false };
    requests.push(record);
    res.on('close', () => {
      record.done = true;
      log?.request(record);
      waiters.notify(record);
    });
    waiters.notify(record);
    try {
      if (req.method === 'POST' && path === '/v1/responses') await answer(req, res, record, signal);
      else throw new HttpReplyError(404, `mock: no route for ${record.method} ${path}`);
    } catch (error) {
      const status = error instanceof HttpReplyError ? error.status : 500;
      record.status = status;
      record.error = error instanceof Error ? error.message : String(error);
      try {
        sendJson(res, status, errorBody(status, record.error));
      } finally {
        // A body we never read (413) or a half-written stream cannot be reused: drop the connection.
        if (!res.writableEnded) res.destroy();
      }
    }
  };

  const server = await serveOnLoopback(options.port ?? 0, handle, async () => log?.flush());

  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    waitForRequest: (predicate, waitOptions = {}) => waiters.wait(predicate, waitOptions),
    close: server.close,
  };
}
