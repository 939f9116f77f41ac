// The decision route served by node:http itself, ahead of Hono: people answer approvals through it far
// more often than through any other, and Hono's context, router, web Request and the Response objects its
// middleware adds headers to cost more per decision than the route's own work. It makes the same checks in
// the same order (apiCaller, then answerApproval, the functions the Hono route calls) and replies with
// the same status, body and headers, errors included (errorReply). Only a request that is plainly this
// route is taken: `POST /api/approvals/<id>/decision` with a plain id and no query; anything else, however
// close, goes to Hono as before.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { apiCaller } from './api-guard.js';
import { DecisionRequest } from './api-schema.js';
import { readJsonIncoming } from './body.js';
import { writeJson } from './direct-reply.js';
import { errorReply } from './http-error.js';
import type { HeaderReader, RequestGuard } from './request-guard.js';
import { answerApproval, type ApprovalRouteDeps } from './routes-approvals.js';

/** The route, for ids made of the characters Warden's ids use; any other id is Hono's to route. */
const DECISION_PATH = /^\/api\/approvals\/([\w-]{1,200})\/decision$/;

export interface FastPathDeps extends ApprovalRouteDeps {
  guard: RequestGuard;
  onError: (error: unknown) => void;
}

/** Takes the request and answers it (true), or leaves it to the next listener (false). */
export type FastPath = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

export function decisionFastPath(deps: FastPathDeps): FastPath {
  return (incoming, outgoing) => {
    if (incoming.method !== 'POST') return false;
    const path = incoming.url ?? '';
    const approvalId = DECISION_PATH.exec(path)?.[1];
    if (approvalId === undefined) return false;
    void answer(deps, incoming, outgoing, path, approvalId);
    return true;
  };
}

async function answer(
  deps: FastPathDeps,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  path: string,
  approvalId: string,
): Promise<void> {
  try {
    const caller = apiCaller(deps.guard, webHeaders(incoming), 'POST', path);
    const body = await readJsonIncoming(incoming, DecisionRequest);
    writeJson(outgoing, 200, await answerApproval(deps, caller, approvalId, body));
  } catch (error) {
    const reply = errorReply(error);
    if (reply.unexpected) deps.onError(error);
    // The client may be gone (the body never came whole): there is no one left to tell.
    if (!outgoing.headersSent && !outgoing.destroyed)
      writeJson(outgoing, reply.status, reply.body, reply.headers);
  }
}

/**
 * The request's headers as the web Request Hono reads them has them: every value of a repeated header,
 * joined (a cookie's with "; "), where Node's `headers` keeps only the first of some (Host, Authorization).
 */
function webHeaders(incoming: IncomingMessage): HeaderReader {
  const all = incoming.headersDistinct;
  return (name) => all[name]?.join(name === 'cookie' ? '; ' : ', ');
}
