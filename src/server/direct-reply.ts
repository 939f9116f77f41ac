// A hot route's JSON reply (the decision), written straight to Node's response when the node adapter
// serves the request: the adapter would otherwise pump a web Response's body stream into it, which costs
// more than the decision's own work in the route and can wait a timer turn for the second read.
// Elsewhere (app.request() in tests, another adapter) it is c.json as usual. The headers are the ones the
// API middleware adds to every reply (app.ts).
import { ServerResponse, type IncomingMessage } from 'node:http';

import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

/** What every API reply carries, set by the middleware for the others (app.ts). */
export const API_REPLY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

interface JsonContext {
  readonly env: unknown;
  json(body: unknown): Response;
}

export function replyJson(c: JsonContext, body: unknown): Response {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (!(outgoing instanceof ServerResponse) || outgoing.headersSent) return c.json(body);
  writeJson(outgoing as ServerResponse<IncomingMessage>, 200, body);
  return RESPONSE_ALREADY_SENT;
}

/** A JSON reply with the API's headers (and `headers`, such as an error's Retry-After) to Node's response. */
export function writeJson(
  outgoing: ServerResponse<IncomingMessage>,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  outgoing.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...API_REPLY_HEADERS,
  });
  outgoing.end(text);
}
