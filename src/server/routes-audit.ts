// The audit trail over HTTP, for any authenticated caller: `GET /api/audit` streams the records as JSON
// Lines or CSV (a page at a time from the store, so an export of any size holds little memory), in chain
// order or newest first, filtered by time, thread, decider and outcome, and `GET /api/audit/verify`
// checks the chain from its first record (the same check `warden audit verify` makes on a store it reads
// itself). A filter that cannot match anything by its form is a 400 naming the parameter.
import { Hono } from 'hono';
import { z } from 'zod';

import { AUDIT_OUTCOMES, type AuditQuery } from '../store/audit-record.js';
import type { Supervisor } from '../supervisor/index.js';
import { csvHeader, csvLine, jsonlLine, type AuditFormat } from './audit-export.js';
import { parseOrThrow } from './body.js';
import { DECIDER_NAME } from './deciders.js';

const PAGE = 500;
/** The names Warden decides under besides the deciders' own (`owner`, `policy`… match DECIDER_NAME). */
const BUILT_IN_DECIDERS = new Set(['webhook link']);

/** A record's seq, named in the message when it is not one. */
function seq(name: string) {
  const message = `${name} must be a record number (a whole number, 0 or more)`;
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(Number.MAX_SAFE_INTEGER, message);
}

const LIMIT = 'limit must be a whole number from 1 to 1000';

const AuditQueryParams = z
  .strictObject({
    format: z.enum(['jsonl', 'csv'], { error: 'format must be jsonl or csv' }).default('jsonl'),
    /** Records at or after this time: an ISO 8601 date or date-time. */
    since: z
      .string()
      .max(64)
      .refine((text) => !Number.isNaN(Date.parse(text)), 'since must be an ISO 8601 date or date-time')
      .optional(),
    /** Records after this seq. */
    after: seq('after').optional(),
    /** Records before this seq (with `order=desc`, the next page of a newest-first listing). */
    before: seq('before').optional(),
    order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('asc'),
    threadId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,128}$/, 'threadId must be a thread id (letters, digits, - and _)')
      .optional(),
    decider: z
      .string()
      .refine(
        (name) => DECIDER_NAME.test(name) || BUILT_IN_DECIDERS.has(name),
        "decider must be a decider's name: owner, a token's name (a-z, 0-9, _ and -, at most 32), policy, deadline, warden or webhook link",
      )
      .optional(),
    outcome: z
      .enum(AUDIT_OUTCOMES, { error: `outcome must be one of ${AUDIT_OUTCOMES.join(', ')}` })
      .optional(),
    /** At most this many records (default: all of them). */
    limit: z.coerce.number({ error: LIMIT }).int(LIMIT).min(1, LIMIT).max(1000, LIMIT).optional(),
  })
  .refine((q) => q.after === undefined || q.before === undefined || q.before > q.after, {
    message: 'before must be greater than after',
    path: ['before'],
  });

export function auditRoutes({ supervisor }: { supervisor: Supervisor }): Hono {
  const app = new Hono();

  app.get('/', (c) => {
    const { format, limit, ...params } = parseOrThrow(AuditQueryParams, c.req.query());
    const query: AuditQuery = {
      order: params.order,
      ...(params.since === undefined ? {} : { since: new Date(params.since).toISOString() }),
      ...(params.after === undefined ? {} : { after: params.after }),
      ...(params.before === undefined ? {} : { before: params.before }),
      ...(params.threadId === undefined ? {} : { threadId: params.threadId }),
      ...(params.decider === undefined ? {} : { decider: params.decider }),
      ...(params.outcome === undefined ? {} : { outcome: params.outcome }),
    };
    const body = auditStream(supervisor, format, query, limit);
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
        'content-disposition': `attachment; filename="warden-audit.${format}"`,
      },
    });
  });

  app.get('/verify', (c) => c.json(supervisor.verifyAudit()));

  return app;
}

/**
 * The export, read from the store a page at a time as the client takes it: the records `query` selects,
 * at most `limit` of them (all without one), each page continuing after (or, newest first, before) the
 * last record of the one before.
 */
export function auditStream(
  source: { readAudit(query: AuditQuery): ReturnType<Supervisor['readAudit']> },
  format: AuditFormat,
  query: Omit<AuditQuery, 'limit'>,
  limit?: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const desc = query.order === 'desc';
  let cursor = { ...query };
  let left = limit ?? Number.POSITIVE_INFINITY;
  let header = format === 'csv';
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const want = Math.min(PAGE, left);
        const rows = source.readAudit({ ...cursor, limit: want });
        const lines = rows.map(format === 'csv' ? csvLine : jsonlLine);
        if (header) lines.unshift(csvHeader());
        header = false;
        if (lines.length > 0) controller.enqueue(encoder.encode(lines.join('')));
        left -= rows.length;
        const last = rows.at(-1);
        if (rows.length < want || left <= 0 || last === undefined) controller.close();
        else cursor = desc ? { ...cursor, before: last.seq } : { ...cursor, after: last.seq };
      },
    },
    { highWaterMark: 1 },
  );
}
