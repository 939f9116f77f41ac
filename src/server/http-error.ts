// One way to fail an HTTP request: every error becomes `{ error: { code, message } }` with the status
// that says what went wrong. The supervisor's typed errors map by their stable code; anything else is a
// 500 whose details stay in the server's log, not in the response.
import { WardenError } from '../protocol/errors.js';
import type { ApiErrorCode, ErrorResponse } from './api-schema.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500;

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
};

export interface ErrorReply {
  status: ErrorStatus;
  body: ErrorResponse;
  /** The error was not expected: log it. */
  unexpected: boolean;
}

export function errorReply(error: unknown): ErrorReply {
  if (error instanceof ApiError)
    return { status: error.status, body: body(error.code, error.message), unexpected: false };
  if (WardenError.isWardenError(error)) {
    const status = STATUS_OF_CODE[error.code];
    if (status !== undefined) return { status, body: body(error.code, error.message), unexpected: false };
    // A failure of the agent machinery (spawn, store): the code helps, the message is the CLI's or ours.
    return { status: 500, body: body(error.code, error.message), unexpected: true };
  }
  return { status: 500, body: body('INTERNAL', 'Internal server error'), unexpected: true };
}

function body(code: string, message: string): ErrorResponse {
  return { error: { code, message } };
}
