// The audit trail over HTTP, for any authenticated caller: `GET /api/audit?format=jsonl|csv&since=&after=`
// streams the records (a page at a time from the store, so an export of any size holds little memory),
// and `GET /api/audit/verify` checks the chain from its first record (the same check `warden audit
// verify` makes on a store it reads itself).
import { Hono } from 'hono';
import { z } from 'zod';

import type { Supervisor } from '../supervisor/index.js';
import { csvHeader, csvLine, jsonlLine, type AuditFormat } from './audit-export.js';
import { parseOrThrow } from './body.js';

const PAGE = 500;

const AuditQuery = z.strictObject({
  format: z.enum(['jsonl', 'csv']).default('jsonl'),
  /** Records at or after this time: an ISO 8601 date or date-time. */
  since: z
    .string()
    .max(64)
    .refine((text) => !Number.isNaN(Date.parse(text)), 'since must be an ISO 8601 date or date-time')
    .optional(),
  /** Records after this seq. */
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

export function auditRoutes({ supervisor }: { supervisor: Supervisor }): Hono {
  const app = new Hono();

  app.get('/', (c) => {
    const query = parseOrThrow(AuditQuery, c.req.query());
    const since = query.since === undefined ? undefined : new Date(query.since).toISOString();
    const body = auditStream(supervisor, query.format, since, query.after ?? 0);
    return new Response(body, {
      status: 200,
      headers: {
        'content-type':
          query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
        'content-disposition': `attachment; filename="warden-audit.${query.format}"`,
      },
    });
  });

  app.get('/verify', (c) => c.json(supervisor.verifyAudit()));

  return app;
}

/** The export, read from the store a page at a time as the client takes it. */
export function auditStream(
  source: {
    readAudit(query: { after: number; limit: number; since?: string }): ReturnType<Supervisor['readAudit']>;
  },
  format: AuditFormat,
  since: string | undefined,
  after: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = after;
  let header = format === 'csv';
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const rows = source.readAudit({
          after: next,
          limit: PAGE,
          ...(since === undefined ? {} : { since }),
        });
        const lines = rows.map(format === 'csv' ? csvLine : jsonlLine);
        if (header) lines.unshift(csvHeader());
        header = false;
        if (lines.length > 0) controller.enqueue(encoder.encode(lines.join('')));
        if (rows.length < PAGE) controller.close();
        else next = rows.at(-1)?.seq ?? next;
      },
    },
    { highWaterMark: 1 },
  );
}
