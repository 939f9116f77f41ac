// The thread routes: create, list, read (records, conversation, events), send, interrupt, stop, stop one
// subagent, change mode or title. Each validates its input once (api-schema.ts) and hands it to the
// supervisor, whose typed errors become statuses in http-error.ts.
import { Hono, type Context } from 'hono';

import { NotFoundError } from '../protocol/errors.js';
import type { SubagentRecord, Supervisor } from '../supervisor/index.js';
import {
  CreateThreadRequest,
  EventsQuery,
  SendMessageRequest,
  UpdateThreadRequest,
  type CreateThreadResponse,
  type EventsResponse,
  type ThreadListResponse,
} from './api-schema.js';
import { definedOnly, parseOrThrow, readJsonBody } from './body.js';
import { readEventPage } from './event-reader.js';
import { listThreads, threadDetail } from './views.js';

export interface RouteDeps {
  supervisor: Supervisor;
}

const EVENTS_PAGE = 500;

export function threadRoutes({ supervisor }: RouteDeps): Hono {
  const app = new Hono();

  app.get('/', (c) => {
    // Read in one synchronous step: the list and the seq describe the same moment.
    const body: ThreadListResponse = { threads: listThreads(supervisor), lastSeq: supervisor.lastSeq() };
    return c.json(body);
  });

  app.post('/', async (c) => {
    const { plan, prompt, rules, model, title, deadlines, host, agent, ...rest } = await readJsonBody(
      c.req.raw,
      CreateThreadRequest,
    );
    const thread = await supervisor.createThread({
      ...rest,
      ...(plan === undefined ? {} : { plan }),
      ...(agent === undefined ? {} : { agent }),
      ...(host === undefined ? {} : { host }),
      ...(model === undefined ? {} : { model }),
      ...(title === undefined ? {} : { title }),
      ...(rules === undefined ? {} : { rules: definedOnly(rules) }),
      ...(deadlines === undefined ? {} : { deadlines: definedOnly(deadlines) }),
    });
    const run = prompt === undefined ? null : await supervisor.send(thread.id, prompt);
    const body: CreateThreadResponse = { thread: supervisor.getThread(thread.id).thread, run };
    return c.json(body, 201);
  });

  app.get('/:id', (c) => c.json(threadDetail(supervisor, c.req.param('id'))));

  app.get('/:id/events', (c) => {
    const threadId = c.req.param('id');
    const query = parseOrThrow(EventsQuery, c.req.query());
    supervisor.getThread(threadId); // an unknown thread is a 404, not an empty page
    const page = readEventPage(supervisor, {
      threadId,
      since: query.since ?? 0,
      limit: query.limit ?? EVENTS_PAGE,
    });
    const body: EventsResponse = page;
    return c.json(body);
  });

  app.post('/:id/messages', async (c) => {
    const { text } = await readJsonBody(c.req.raw, SendMessageRequest);
    const threadId = c.req.param('id');
    const host = supervisor.commandHost(threadId);
    const run = await supervisor.send(threadId, text);
    // Another host runs the thread: `run` is the run it will start (queued), `forwardedTo` names it.
    return c.json({ run, ...(host === undefined ? {} : { forwardedTo: host }) }, 202);
  });

  app.post('/:id/interrupt', async (c) => {
    const threadId = c.req.param('id');
    const host = supervisor.commandHost(threadId);
    await supervisor.interrupt(threadId);
    return forwardedOr(c, { thread: supervisor.getThread(threadId).thread }, host);
  });

  app.post('/:id/stop', async (c) => {
    const threadId = c.req.param('id');
    const host = supervisor.commandHost(threadId);
    await supervisor.stop(threadId);
    return forwardedOr(c, { thread: supervisor.getThread(threadId).thread }, host);
  });

  app.post('/:id/subagents/:subagentId/stop', async (c) => {
    const threadId = c.req.param('id');
    const subagentId = c.req.param('subagentId');
    subagentOf(supervisor, threadId, subagentId); // one of another thread is a 404 here
    const host = supervisor.commandHost(threadId);
    await supervisor.stopSubagent(subagentId);
    return forwardedOr(c, { subagent: subagentOf(supervisor, threadId, subagentId) }, host);
  });

  app.patch('/:id', async (c) => {
    const { mode, title } = await readJsonBody(c.req.raw, UpdateThreadRequest);
    const threadId = c.req.param('id');
    if (title !== undefined) await supervisor.rename(threadId, title);
    const host = mode === undefined ? undefined : supervisor.commandHost(threadId);
    if (mode !== undefined) await supervisor.setMode(threadId, mode);
    // Another host runs the thread: it changes the mode when it takes the request up.
    return forwardedOr(c, { thread: supervisor.getThread(threadId).thread }, host);
  });

  return app;
}

function subagentOf(supervisor: Supervisor, threadId: string, subagentId: string): SubagentRecord {
  const subagent = supervisor.getThread(threadId).subagents.find((s) => s.id === subagentId);
  if (subagent === undefined)
    throw new NotFoundError(
      'subagent',
      subagentId,
      `Thread ${threadId} has no subagent ${JSON.stringify(subagentId)}`,
    );
  return subagent;
}

/**
 * A command another host of the fleet runs (`host`): 202 with `forwardedTo` naming it; the records in
 * `body` are as they are now, before it ran. Otherwise 200 with `body`.
 */
function forwardedOr(c: Context, body: Record<string, unknown>, host: string | undefined): Response {
  return host === undefined ? c.json(body) : c.json({ ...body, forwardedTo: host }, 202);
}
