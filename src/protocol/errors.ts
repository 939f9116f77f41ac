// The WardenError family. Every failure Warden reports is one of these, with a stable string `code` that
// applications can match on (messages may be reworded; codes may not). Bad options are plain TypeErrors,
// thrown at once, and are not part of this family.

const BRAND = Symbol.for('warden.error');

export type WardenErrorCode =
  | 'SPAWN_FAILED'
  | 'PROCESS_EXITED'
  | 'TRANSPORT_CLOSED'
  | 'CONTROL_CHANNEL_CLOSED'
  | 'FRAME_TOO_LARGE'
  | 'PROTOCOL_ERROR'
  | 'CONTROL_REQUEST_FAILED'
  | 'REQUEST_TIMEOUT'
  | 'ABORTED'
  | 'CLI_NOT_FOUND'
  | 'CALLBACK_FAILED'
  | 'ERROR_RESULT'
  | 'INPUT_CLOSED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'VALIDATION'
  | 'STORE_FAILED'
  | 'STORE_FULL'
  | 'STORE_UNAVAILABLE'
  | 'STORE_LOCKED'
  | 'STORE_CORRUPT'
  | 'STORE_TOO_NEW'
  | 'SERVER_REQUEST_FAILED'
  | 'SANDBOX_UNAVAILABLE'
  | 'CLI_TOO_OLD';

export class WardenError extends Error {
  readonly code: WardenErrorCode;

  constructor(code: WardenErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Works across realms and duplicate copies of the package, where `instanceof` does not. */
  static isWardenError(value: unknown): value is WardenError {
    return typeof value === 'object' && value !== null && BRAND in value;
  }
}

/** The CLI could not be started: missing binary, not executable, no PATH, bad cwd. */
export class SpawnError extends WardenError {
  readonly errno: string | undefined;
  readonly command: string;
  readonly hint: string | undefined;

  constructor(command: string, errno: string | undefined, hint?: string, options?: { cause?: unknown }) {
    const detail = errno === undefined ? '' : ` (${errno})`;
    super(
      'SPAWN_FAILED',
      `Failed to spawn ${command}${detail}${hint === undefined ? '' : `: ${hint}`}`,
      options,
    );
    this.command = command;
    this.errno = errno;
    this.hint = hint;
  }
}

/** The CLI exited unsuccessfully (non-zero code or a signal). Wording follows the official SDK. */
export class ProcessExitError extends WardenError {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: string;

  constructor(exitCode: number | null, signal: NodeJS.Signals | null, stderrTail: string, detail?: string) {
    const head =
      signal !== null
        ? `Claude Code process terminated by signal ${signal}`
        : `Claude Code process exited with code ${String(exitCode)}`;
    const tail = stderrTail.trim();
    // "<head>. stderr: <tail>" exactly as the official SDK words it: applications match on it.
    const withStderr = tail === '' ? head : `${head}. stderr: ${lastLines(tail, 20)}`;
    super('PROCESS_EXITED', detail === undefined ? withStderr : `${withStderr}\n${detail}`);
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderrTail = stderrTail;
  }
}

/** A write or read on a transport that is already closed. */
export class TransportClosedError extends WardenError {
  constructor(message = 'Transport is closed', options?: { cause?: unknown }) {
    super('TRANSPORT_CLOSED', message, options);
  }
}

/**
 * The control channel closed while a request was pending or a reply was still owed. The message is the
 * official SDK's, word for word (applications compare it); why it closed is in `reason` (and `cause`).
 */
export class ControlChannelClosedError extends WardenError {
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super('CONTROL_CHANNEL_CLOSED', 'Query closed before response received', options);
    this.reason = reason;
  }
}

/** A single line from the CLI exceeded the configured maximum frame size. */
export class FrameTooLargeError extends WardenError {
  readonly limit: number;
  readonly size: number;

  constructor(limit: number, size: number) {
    super(
      'FRAME_TOO_LARGE',
      `A line from the CLI exceeded the maximum frame size: at least ${size} bytes, limit ${limit} bytes (raise maxFrameBytes)`,
    );
    this.limit = limit;
    this.size = size;
  }
}

/** The CLI sent something that violates the protocol (a frame we must act on failed validation). */
export class ProtocolError extends WardenError {
  readonly excerpt: string | undefined;

  constructor(message: string, excerpt?: string, options?: { cause?: unknown }) {
    super('PROTOCOL_ERROR', excerpt === undefined ? message : `${message}: ${excerpt}`, options);
    this.excerpt = excerpt;
  }
}

/** The CLI answered one of our control requests with an error. */
export class ControlRequestError extends WardenError {
  readonly subtype: string;
  /** The CLI's snake_case `error_code`, when it sent one (e.g. `unsupported_request`). */
  readonly errorCode: string | undefined;

  constructor(subtype: string, message: string, errorCode?: string) {
    super('CONTROL_REQUEST_FAILED', `Control request ${subtype} failed: ${message}`);
    this.subtype = subtype;
    this.errorCode = errorCode;
  }
}

export class RequestTimeoutError extends WardenError {
  readonly subtype: string;
  readonly timeoutMs: number;

  constructor(subtype: string, timeoutMs: number) {
    super('REQUEST_TIMEOUT', `Control request ${subtype} timed out after ${timeoutMs} ms`);
    this.subtype = subtype;
    this.timeoutMs = timeoutMs;
  }
}

/** The caller aborted (AbortController or close()). */
export class AbortError extends WardenError {
  constructor(message = 'The operation was aborted', options?: { cause?: unknown }) {
    super('ABORTED', message, options);
  }
}

/** A caller's callback (canUseTool, a hook, an MCP tool) threw or returned something unusable. */
export class CallbackError extends WardenError {
  readonly callback: string;

  constructor(callback: string, message: string, options?: { cause?: unknown }) {
    super('CALLBACK_FAILED', message, options);
    this.callback = callback;
  }
}

/** The CLI ended a turn with an error result and then exited unsuccessfully. Wording follows the official SDK. */
export class ErrorResultError extends WardenError {
  readonly errors: string[];
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: string;

  constructor(errors: string[], exit: ProcessExitError) {
    super('ERROR_RESULT', `Claude Code returned an error result: ${errors.filter(Boolean).join('; ')}`, {
      cause: exit,
    });
    this.errors = errors;
    this.exitCode = exit.exitCode;
    this.signal = exit.signal;
    this.stderrTail = exit.stderrTail;
  }
}

/** Input to the CLI was closed while something could still have needed it (an opt-in ceiling fired). */
export class InputClosedError extends WardenError {
  constructor(message: string) {
    super('INPUT_CLOSED', message);
  }
}

export class CliNotFoundError extends WardenError {
  constructor(message: string) {
    super('CLI_NOT_FOUND', message);
  }
}

/** The CLI is too old for something the options ask of it (it answered without the field that says so). */
export class CliTooOldError extends WardenError {
  /** The CLI's own version, when its answer named it. */
  readonly cliVersion: string | undefined;

  constructor(message: string, cliVersion: string | undefined) {
    super('CLI_TOO_OLD', message);
    this.cliVersion = cliVersion;
  }
}

/** A thing looked up by id does not exist: a session transcript, a message in it. */
export class NotFoundError extends WardenError {
  readonly resource: string;
  readonly id: string;

  constructor(resource: string, id: string, message: string) {
    super('NOT_FOUND', message);
    this.resource = resource;
    this.id = id;
  }
}

/** The request is valid but the state does not allow it: a decision on a settled approval, a closed supervisor. */
export class ConflictError extends WardenError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONFLICT', message, options);
  }
}

/** The caller passed something malformed: an invalid mode, an empty message, a bad rule. */
export class ValidationError extends WardenError {
  /** The offending field, when there is one (e.g. `mode`, `rules.allow[0]`). */
  readonly field: string | undefined;

  constructor(message: string, field?: string) {
    super('VALIDATION', message);
    this.field = field;
  }
}

export type StoreErrorCode =
  'STORE_FAILED' | 'STORE_FULL' | 'STORE_UNAVAILABLE' | 'STORE_LOCKED' | 'STORE_CORRUPT' | 'STORE_TOO_NEW';

/**
 * The store could not be opened, read or written; `code` says why. `STORE_FULL`: the disk (or the
 * database's size cap) is full. `STORE_UNAVAILABLE`: an I/O error (a failed write or fsync, a read-only
 * file). `STORE_LOCKED`: another process holds the database. `STORE_CORRUPT`: the file is damaged or is
 * not a Warden database. `STORE_TOO_NEW`: a newer Warden wrote it (its schema version is past the newest
 * this one knows); nothing was written to it. `STORE_FAILED`: anything else (a failed migration). Nothing of a failed commit is written.
 */
export class StoreError extends WardenError {
  constructor(message: string, options?: { cause?: unknown; code?: StoreErrorCode }) {
    super(options?.code ?? 'STORE_FAILED', message, options);
  }

  /** The same write may succeed later, with nothing else changed: the disk has room again, the I/O passes. */
  get retryable(): boolean {
    return this.code === 'STORE_FULL' || this.code === 'STORE_UNAVAILABLE';
  }
}

/**
 * A request to a running Warden server failed: it did not answer (`status` null), refused the token, or
 * answered with an error the client has no class for. `serverCode` is the `code` of its JSON error body.
 */
export class ServerRequestError extends WardenError {
  readonly status: number | null;
  readonly serverCode: string | null;

  constructor(
    message: string,
    status: number | null,
    serverCode: string | null,
    options?: { cause?: unknown },
  ) {
    super('SERVER_REQUEST_FAILED', message, options);
    this.status = status;
    this.serverCode = serverCode;
  }
}

/**
 * The operating system cannot confine the CLI's commands here (no bubblewrap or socat, no user
 * namespaces, an unsupported platform) and the host was told to require it (`sandbox: 'required'`), or a
 * CLI reported its sandbox off. `reason` says what is missing.
 */
export class SandboxUnavailableError extends WardenError {
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super('SANDBOX_UNAVAILABLE', `The CLI's sandbox cannot run here: ${reason}`, options);
    this.reason = reason;
  }
}

function lastLines(text: string, count: number): string {
  const lines = text.split('\n');
  return lines.slice(Math.max(0, lines.length - count)).join('\n');
}

/** Turns anything thrown into an Error, keeping Errors as they are. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
