// Request bodies: JSON only, at most MAX_BODY_BYTES, validated against the route's schema. The size is
// enforced while reading (Content-Length can be absent or lie), so an oversized body is never held whole.
// Under the node adapter a hot route reads the body straight from Node's request (readJsonBodyOf): the
// adapter would otherwise build a web Request and pump the few bytes through a ReadableStream.
import { IncomingMessage } from 'node:http';

import type { z } from 'zod';

import { MAX_BODY_BYTES } from './api-schema.js';
import { ApiError } from './http-error.js';

export function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limit = MAX_BODY_BYTES,
): Promise<z.infer<S>> {
  return parsedBody(
    request.headers.get('content-type'),
    request.headers.get('content-length'),
    schema,
    limit,
    () => readLimited(request, limit),
  );
}

/** The same, from a Hono context: from Node's request when the node adapter serves it, else from the web one. */
export function readJsonBodyOf<S extends z.ZodType>(
  c: { req: { raw: Request }; env: unknown },
  schema: S,
  limit = MAX_BODY_BYTES,
): Promise<z.infer<S>> {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage)) return readJsonBody(c.req.raw, schema, limit);
  return readJsonIncoming(incoming, schema, limit);
}

/** The same, from Node's request itself. */
export function readJsonIncoming<S extends z.ZodType>(
  incoming: IncomingMessage,
  schema: S,
  limit = MAX_BODY_BYTES,
): Promise<z.infer<S>> {
  const { 'content-type': type, 'content-length': length } = incoming.headers;
  return parsedBody(type ?? null, length ?? null, schema, limit, () => readIncoming(incoming, limit));
}

async function parsedBody<S extends z.ZodType>(
  type: string | null,
  length: string | null,
  schema: S,
  limit: number,
  read: () => Promise<string>,
): Promise<z.infer<S>> {
  if (!/^application\/json\s*(;|$)/i.test(type ?? ''))
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as Content-Type: application/json');
  const declared = Number(length ?? 'NaN');
  if (declared > limit) throw tooLarge(limit);
  const text = await read();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'BAD_REQUEST', 'The body is not valid JSON');
  }
  return parseOrThrow(schema, value);
}

/** Node's request body, whole; past `limit` the rest is read and dropped while the 413 goes out. */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      done();
      chunks.length = 0;
      incoming.resume();
      reject(tooLarge(limit));
    };
    const onEnd = (): void => {
      done();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (error: Error): void => {
      done();
      reject(error);
    };
    const onClose = (): void => {
      done();
      reject(new ApiError(400, 'BAD_REQUEST', 'The request ended before its body'));
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** Validates anything that came from the client (a body, a query string) against a schema. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  throw new ApiError(400, 'VALIDATION', `${where}${issue?.message ?? 'invalid request'}`);
}

async function readLimited(request: Request, limit: number): Promise<string> {
  if (request.body === null) return '';
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // Stop pulling the rest of an oversized body; the 413 goes out regardless.
        await reader.cancel();
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `The body exceeds ${limit} bytes`);
}

/**
 * The object without its undefined-valued keys: zod types an optional field as `T | undefined`, the
 * supervisor's inputs as an absent key.
 */
export function definedOnly<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
