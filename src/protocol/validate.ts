// Runs a zod schema at the boundary and turns a failure into a ProtocolError value. Nothing here throws:
// the read loop must survive any line the CLI writes.
import type { z } from 'zod';
import { ProtocolError } from './errors.js';

const EXCERPT_CHARS = 200;

/** A short, single-line rendering of a frame for error messages. */
export function excerptOf(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length === 0 ? '(frame)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
}

/**
 * Checks `value` against `schema`. On success returns `value` itself, not zod's copy: the frame passes on
 * untouched (same object, same key order, every unknown field). The schemas used here never transform.
 * On failure returns a ProtocolError naming `what` was expected.
 */
export function validate<T>(schema: z.ZodType<T>, value: unknown, what: string): T | ProtocolError {
  const result = schema.safeParse(value);
  if (result.success) return value as T;
  return new ProtocolError(`Invalid ${what} (${describeIssues(result.error)})`, excerptOf(value), {
    cause: result.error,
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
