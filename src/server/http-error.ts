// One way to fail an HTTP request: every error becomes `{ error: { code, message } }` with the status
// that says what went wrong. The supervisor's typed errors map by their stable code; anything else is a
// 500 whose details stay in the server's log, not in the response. A store that cannot write for now (a
// full disk, an I/O error) is a 503 with Retry-After: nothing was changed, and the same request may
// succeed once the store has room again.
import { WardenError } from '../protocol/errors.js';
import type { ApiErrorCode, ErrorResponse } from './api-schema.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500 | 503;

/** How long a client is asked to wait before it tries a request the store could not take again. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** An error raised by the server itself (auth, body, routing), carrying its HTTP status. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly code: ApiErrorCode;

  constructor(status: ErrorStatus, code: ApiErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

const STATUS_OF_CODE: Partial<Record<string, ErrorStatus>> = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  VALIDATION: 400,
  STORE_FULL: 503,
  STORE_UNAVAILABLE: 503,
  STORE_LOCKED: 503,
};

export interface ErrorReply {
  status: ErrorStatus;
  body: ErrorResponse;
  /** The error was not expected: log it. */
  unexpected: boolean;
  /** Headers the response carries besides the body's (Retry-After on a 503). */
  headers: Record<string, string>;
}

export function errorReply(error: unknown): ErrorReply {
  if (error instanceof ApiError)
    return { status: error.status, body: body(error.code, error.message), unexpected: false, headers: {} };
  if (WardenError.isWardenError(error)) {
    const status = STATUS_OF_CODE[error.code];
    // The store could not write: the operator must hear of it (logged), the client may try again.
    if (status === 503)
      return {
        status,
        body: body(error.code, error.message),
        unexpected: true,
        headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
      };
    if (status !== undefined)
      return { status, body: body(error.code, error.message), unexpected: false, headers: {} };
    // A failure of the agent machinery (spawn, store): the code helps, the message is the CLI's or ours.
    return { status: 500, body: body(error.code, error.message), unexpected: true, headers: {} };
  }
  return { status: 500, body: body('INTERNAL', 'Internal server error'), unexpected: true, headers: {} };
}

function body(code: string, message: string): ErrorResponse {
  return { error: { code, message } };
}
