// Options of spawnTransport, validated once at the boundary: anything malformed is a TypeError thrown
// before a process is started.

import type { TransportDiagnostic } from './diagnostics.js';
import { DEFAULT_MAX_FRAME_BYTES } from './line-decoder.js';

export interface ChildTransportOptions {
  command: string;
  args?: readonly string[];
  cwd?: string;
  /**
   * Replaces process.env entirely (undefined values are left out). The transport adds one variable,
   * WARDEN_SESSION_MARKER, used to find descendants that leave the process group.
   */
  env: Record<string, string | undefined>;
  /** Longest accepted stdout line in bytes; default 64 MiB. */
  maxFrameBytes?: number;
  /** Non-JSON lines, a truncated last line, stray stdio errors, leftovers killed at the end. */
  onDiagnostic?: (diagnostic: TransportDiagnostic) => void;
  /** stderr is always drained; the last 8 KiB are kept for stderrTail(). */
  onStderr?: (text: string) => void;
  /** close(): wait after ending stdin, then after SIGTERM, before escalating. Defaults 2000 / 2000 ms. */
  closeGrace?: { stdinMs?: number; termMs?: number };
  /** After the CLI exited, how long stdout may stay silent while the reader waits; default 50 ms. */
  quietAfterExitMs?: number;
}

export interface ResolvedTransportOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly maxFrameBytes: number;
  readonly onDiagnostic: ((diagnostic: TransportDiagnostic) => void) | undefined;
  readonly onStderr: ((text: string) => void) | undefined;
  readonly stdinGraceMs: number;
  readonly termGraceMs: number;
  readonly quietAfterExitMs: number;
}

export const DEFAULT_STDIN_GRACE_MS = 2000;
export const DEFAULT_TERM_GRACE_MS = 2000;
export const DEFAULT_QUIET_AFTER_EXIT_MS = 50;
const MAX_TIMER_MS = 2 ** 31 - 1;

export function resolveTransportOptions(options: ChildTransportOptions): ResolvedTransportOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const { command, args = [], cwd, env, closeGrace = {} } = options;
  if (typeof command !== 'string' || command === '' || command.includes('\0')) {
    throw new TypeError('options.command must be a non-empty string');
  }
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
    throw new TypeError('options.args must be an array of strings');
  }
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) {
    throw new TypeError('options.cwd must be a non-empty string');
  }
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw new TypeError('options.env must be an object (it replaces process.env)');
  }
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && typeof value !== 'string') {
      throw new TypeError(`options.env.${key} must be a string or undefined`);
    }
  }
  if (typeof closeGrace !== 'object' || closeGrace === null) {
    throw new TypeError('options.closeGrace must be an object');
  }
  return {
    command,
    args: [...args],
    cwd,
    env: { ...env },
    maxFrameBytes: positiveInteger('maxFrameBytes', options.maxFrameBytes, DEFAULT_MAX_FRAME_BYTES),
    onDiagnostic: optionalFunction('onDiagnostic', options.onDiagnostic),
    onStderr: optionalFunction('onStderr', options.onStderr),
    stdinGraceMs: duration('closeGrace.stdinMs', closeGrace.stdinMs, DEFAULT_STDIN_GRACE_MS),
    termGraceMs: duration('closeGrace.termMs', closeGrace.termMs, DEFAULT_TERM_GRACE_MS),
    quietAfterExitMs: duration('quietAfterExitMs', options.quietAfterExitMs, DEFAULT_QUIET_AFTER_EXIT_MS),
  };
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`options.${name} must be a positive integer`);
  }
  return value;
}

function duration(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  // Node's timers silently turn anything past 2^31 - 1 ms into 1 ms.
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new TypeError(`options.${name} must be a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  return value;
}

function optionalFunction<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function')
    throw new TypeError(`options.${name} must be a function`);
  return value;
}
