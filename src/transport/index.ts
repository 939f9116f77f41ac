// bytes <-> frames: the line decoder, the child process (spawn, exit watch, tree kill) and the Transport.

export { ChildTransport, spawnTransport, type ChildExit } from './child-transport.js';
export {
  DEFAULT_QUIET_AFTER_EXIT_MS,
  DEFAULT_STDIN_GRACE_MS,
  DEFAULT_TERM_GRACE_MS,
  resolveTransportOptions,
  type ChildTransportOptions,
  type ResolvedTransportOptions,
} from './transport-options.js';
export {
  diagnosticToError,
  type LeftoversKilledDiagnostic,
  type StdioErrorDiagnostic,
  type StdioStreamName,
  type TransportDiagnostic,
} from './diagnostics.js';
export {
  DEFAULT_MAX_FRAME_BYTES,
  LineDecoder,
  type LineDecoderOptions,
  type LineDiagnostic,
} from './line-decoder.js';
export { FrameQueue, type FrameQueueHooks } from './frame-queue.js';
export { startChild, type PipedChild, type StartChildOptions, type StartedChild } from './child-process.js';
export {
  SESSION_MARKER_VARIABLE,
  findLeftovers,
  findLeftoversSync,
  isRunning,
  killTree,
  signalGroup,
  signalProcess,
  startTicksOf,
  waitUntilDead,
  type ProcessTree,
  type TreeKillResult,
} from './process-tree.js';
export { reapOnHostExit, trackedTreeCount } from './host-exit-reaper.js';
export { DEFAULT_STDERR_TAIL_CHARS, StderrTail } from './stderr-tail.js';
export { StdinWriter } from './stdin-writer.js';
