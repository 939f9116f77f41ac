// What the transport reports without failing the stream: noise on stdout, a cut-off last line, stray
// stdio errors, and descendants it had to kill. Hosts usually log these; diagnosticToError gives each one
// a WardenError for that.

import { ProtocolError, TransportClosedError, type WardenError } from '../protocol/errors.js';
import type { LineDiagnostic } from './line-decoder.js';

export type StdioStreamName = 'stdin' | 'stdout' | 'stderr' | 'process';

export interface StdioErrorDiagnostic {
  readonly kind: 'stdio_error';
  readonly stream: StdioStreamName;
  readonly error: Error;
}

export interface LeftoversKilledDiagnostic {
  readonly kind: 'leftovers_killed';
  /** Descendants (same group, or escaped with the session marker) that were still running. */
  readonly pids: readonly number[];
  /** Any of them still running when the wait ran out. */
  readonly survivors: readonly number[];
}

export type TransportDiagnostic = LineDiagnostic | StdioErrorDiagnostic | LeftoversKilledDiagnostic;

/** A WardenError describing the diagnostic, for hosts that report warnings as errors. */
export function diagnosticToError(diagnostic: TransportDiagnostic): WardenError {
  switch (diagnostic.kind) {
    case 'non_json':
      return new ProtocolError(
        `The CLI wrote a line that is not a JSON object (${diagnostic.byteLength} bytes); it was skipped`,
        diagnostic.excerpt,
      );
    case 'truncated_tail':
      return new ProtocolError(
        `The CLI's output ended in the middle of a line (${diagnostic.byteLength} bytes); it was dropped`,
        diagnostic.excerpt,
      );
    case 'stdio_error':
      return new TransportClosedError(`The CLI's ${diagnostic.stream} failed: ${diagnostic.error.message}`, {
        cause: diagnostic.error,
      });
    case 'leftovers_killed':
      return new TransportClosedError(
        `Killed ${diagnostic.pids.length} process(es) the CLI left behind: ${diagnostic.pids.join(', ')}` +
          (diagnostic.survivors.length > 0 ? `; still running: ${diagnostic.survivors.join(', ')}` : ''),
      );
  }
}
