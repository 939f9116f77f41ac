// A refusal of the server as the class the supervisor would have thrown: 404 NotFoundError, 409
// ConflictError, 400 VALIDATION ValidationError, anything else a ServerRequestError with the status and
// the server's code. The message is the server's own (`{ error: { code, message, field? } }`), else it
// says which request got which status.
import {
  ConflictError,
  NotFoundError,
  ServerRequestError,
  ValidationError,
  type WardenError,
} from '../../protocol/errors.js';

export function serverErrorOf(status: number, body: string, what: string): WardenError {
  let code: string | null = null;
  let message = `${what}: HTTP ${status}`;
  let field: string | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
    if (typeof parsed.error?.code === 'string') code = parsed.error.code;
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
    if (typeof parsed.error?.field === 'string') field = parsed.error.field;
  } catch {
    // Not JSON: the status says enough.
  }
  if (status === 409) return new ConflictError(message);
  if (status === 404) return new NotFoundError('resource', what, message);
  if (status === 400 && code === 'VALIDATION') return new ValidationError(message, field);
  return new ServerRequestError(message, status, code);
}

/** Why a request failed, in a few words: the connection's own error when the server did not answer. */
export function failureReason(error: unknown): string {
  if (error instanceof ServerRequestError && error.status === null && error.cause instanceof Error)
    return (error.cause.cause instanceof Error ? error.cause.cause : error.cause).message;
  return error instanceof Error ? error.message : String(error);
}
