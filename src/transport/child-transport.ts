// The Transport the session layer speaks through: NDJSON frames both ways over the CLI's pipes.
//
// Death is detected with the child's 'exit' event, which fires even while a grandchild still holds stdout
// ('close' would wait for it). After 'exit' the reader keeps delivering until stdout ends, or until stdout
// has been silent for quietAfterExitMs *while the consumer is waiting for a frame*: a consumer that is
// merely slow has a paused pipe, not a quiet one, so whatever is buffered is always delivered first. Then
// the process tree is cleaned up, and only then does frames() end (clean for exit 0, ProcessExitError
// otherwise), so a consumer that sees the end never sees a leftover process.

import { randomUUID } from 'node:crypto';
import { ProcessExitError, TransportClosedError, WardenError, toError } from '../protocol/errors.js';
import { startChild, type PipedChild, type StartedChild } from './child-process.js';
import { FrameQueue } from './frame-queue.js';
import { reapOnHostExit } from './host-exit-reaper.js';
import { LineDecoder } from './line-decoder.js';
import { killTree, signalGroup, signalProcess, startTicksOf, type ProcessTree } from './process-tree.js';
import { settlesWithin } from './settles-within.js';
import { StderrTail } from './stderr-tail.js';
import { StdinWriter } from './stdin-writer.js';
import type { StdioStreamName, TransportDiagnostic } from './diagnostics.js';
import {
  resolveTransportOptions,
  type ChildTransportOptions,
  type ResolvedTransportOptions,
} from './transport-options.js';

export interface ChildExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
}

type Frame = Record<string, unknown>;

/**
 * Starts the CLI. Throws TypeError at once for bad options; the promise resolves once the process is
 * running and rejects with SpawnError when it cannot be started.
 */
export function spawnTransport(options: ChildTransportOptions): Promise<ChildTransport> {
  const settings = resolveTransportOptions(options);
  const marker = randomUUID();
  let started: StartedChild;
  try {
    started = startChild({ ...settings, marker });
  } catch (error) {
    return Promise.reject(toError(error));
  }
  const transport = new ChildTransport(started.child, marker, settings);
  return started.spawned.then(() => transport);
}

export class ChildTransport {
  readonly pid: number;
  /** Resolves once, when the CLI process exits. Never rejects. */
  readonly exited: Promise<ChildExit>;

  readonly #child: PipedChild;
  readonly #settings: ResolvedTransportOptions;
  readonly #tree: ProcessTree;
  readonly #decoder: LineDecoder;
  readonly #queue: FrameQueue;
  readonly #stderr = new StderrTail();
  readonly #stderrClosed: Promise<void>;
  readonly #input: StdinWriter;
  readonly #untrack: () => void;
  #resolveExited: (exit: ChildExit) => void = () => undefined;
  #resolveStderrClosed: () => void = () => undefined;
  #exit: ChildExit | undefined;
  #exitedAt = 0;
  #stdoutEnded = false;
  #stderrEnded = false;
  #quietTimer: NodeJS.Timeout | undefined;
  #quietExpired = false;
  /** Frames decoded from the chunk being processed. */
  #batch: Frame[] = [];
  /** Nobody will read further stdout data (closed, failed or finished): drop it, keep the pipe flowing. */
  #discarding = false;
  /** How frames() ends: undefined while undecided, null for a clean end. The first decision wins. */
  #verdict: Error | null | undefined;
  #finishStarted = false;
  #cleanup: Promise<void> | undefined;
  #shutdown: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closeRequested = false;
  #framesTaken = false;

  /** @internal Use spawnTransport(). */
  constructor(child: PipedChild, marker: string, settings: ResolvedTransportOptions) {
    this.#child = child;
    this.#settings = settings;
    this.pid = child.pid ?? -1;
    // Read now, while the process certainly exists (it is not reaped before its 'exit' event).
    this.#tree = {
      pgid: this.pid,
      marker,
      startTicks: child.pid === undefined ? undefined : startTicksOf(child.pid),
    };
    // A pid means the process exists; without one the spawn failed and there is nothing to reap.
    this.#untrack = child.pid === undefined ? () => undefined : reapOnHostExit(this.#tree);
    this.exited = new Promise((resolve) => (this.#resolveExited = resolve));
    this.#stderrClosed = new Promise((resolve) => (this.#resolveStderrClosed = resolve));
    this.#decoder = new LineDecoder({
      maxFrameBytes: settings.maxFrameBytes,
      onFrame: (frame) => this.#batch.push(frame),
      onDiagnostic: (diagnostic) => this.#diagnose(diagnostic),
    });
    this.#input = new StdinWriter(child.stdin, (error) => this.#fail(error, 'stdin'));
    this.#queue = new FrameQueue({
      onEmpty: () => child.stdout.resume(),
      onWaiting: () => {
        child.stdout.resume();
        this.#armQuietTimer();
      },
      onReturn: () => void this.close(),
    });

    child.on('exit', (exitCode, signal) => this.#onExit({ exitCode, signal }));
    child.on('error', (error) => {
      // Errors before 'spawn' are reported by spawnTransport as SpawnError.
      if (child.pid !== undefined) this.#diagnose({ kind: 'stdio_error', stream: 'process', error });
    });
    child.stdout.on('data', (chunk: Buffer) => this.#onStdoutData(chunk));
    child.stdout.on('end', () => this.#onStdoutEnd());
    child.stdout.on('close', () => this.#onStdoutEnd());
    child.stdout.on('error', (error) => this.#fail(error, 'stdout'));
    child.stderr.on('data', (chunk: Buffer) => this.#onStderrText(this.#stderr.push(chunk)));
    child.stderr.on('end', () => this.#onStderrEnd());
    child.stderr.on('close', () => this.#onStderrEnd());
    child.stderr.on('error', (error) => this.#fail(error, 'stderr'));
  }

  /**
   * Single consumer. Yields parsed frames in order; while the consumer does not pull, stdout is paused.
   * Ends normally after the CLI exited 0 and everything it wrote was delivered; throws ProcessExitError
   * for a non-zero exit or a signal, FrameTooLargeError for an oversized line (the transport then closes
   * the child), TransportClosedError if stdout fails. After close() it ends without an error. Leaving the
   * loop early (break, return()) closes the transport.
   */
  frames(): AsyncIterableIterator<Frame> {
    if (this.#framesTaken) throw new TypeError('ChildTransport.frames() has a single consumer');
    this.#framesTaken = true;
    return this.#queue;
  }

  /**
   * Writes JSON.stringify(frame) + '\n'. Resolves when the bytes were handed to the pipe; rejects with
   * TransportClosedError after close(), endInput(), the CLI's exit or a stdin failure, and when the CLI
   * dies before the write completed. Rejects TypeError for a frame JSON cannot represent.
   */
  send(frame: unknown): Promise<void> {
    const closed = this.#inputClosedError();
    if (closed !== undefined) return Promise.reject(closed);
    let line: string | undefined;
    try {
      line = JSON.stringify(frame);
    } catch (error) {
      return Promise.reject(
        new TypeError('send(): the frame cannot be serialised to JSON', { cause: error }),
      );
    }
    if (typeof line !== 'string') return Promise.reject(new TypeError('send(): the frame is not JSON'));
    return this.#input.write(`${line}\n`);
  }

  /** Closes the CLI's stdin. Idempotent. */
  endInput(): void {
    this.#input.end();
  }

  get inputEnded(): boolean {
    return this.#input.ended;
  }

  /**
   * Idempotent. Ends frames() at once (without an error), then: end stdin → stdinMs → SIGTERM to the group
   * → termMs → SIGKILL; then kills what is left of the group and marked descendants that escaped it.
   * Resolves when all of them are gone. The grace timers do not keep the host alive.
   */
  close(): Promise<void> {
    this.#closing ??= this.#closeOnce();
    return this.#closing;
  }

  /** The last 8 KiB of the CLI's stderr. */
  stderrTail(): string {
    return this.#stderr.text;
  }

  /** Bytes read from stdout and not yet taken by the consumer (bounded by backpressure). */
  get bufferedBytes(): number {
    return this.#queue.bufferedBytes + this.#decoder.pendingBytes;
  }

  async #closeOnce(): Promise<void> {
    this.#closeRequested = true;
    this.#decide(null);
    this.#queue.abort(this.#verdict ?? undefined);
    this.#discard();
    await this.#shutdownChild();
  }

  #onStdoutData(chunk: Buffer): void {
    this.#clearQuietTimer();
    if (this.#discarding) return;
    this.#batch = [];
    let failure: unknown;
    try {
      this.#decoder.push(chunk);
    } catch (error) {
      failure = error;
    }
    this.#queue.push(this.#batch, chunk.length);
    if (failure !== undefined) {
      this.#failReading(WardenError.isWardenError(failure) ? failure : toError(failure));
      return;
    }
    if (!this.#queue.isEmpty) this.#child.stdout.pause();
    this.#armQuietTimer();
  }

  #onStdoutEnd(): void {
    if (this.#stdoutEnded) return;
    this.#stdoutEnded = true;
    this.#clearQuietTimer();
    if (!this.#discarding) this.#decoder.end();
    this.#maybeFinish();
  }

  #onStderrText(text: string): void {
    const { onStderr } = this.#settings;
    if (text !== '' && onStderr !== undefined) this.#callback(() => onStderr(text));
  }

  #onStderrEnd(): void {
    if (this.#stderrEnded) return;
    this.#stderrEnded = true;
    this.#onStderrText(this.#stderr.end());
    this.#resolveStderrClosed();
  }

  #onExit(exit: ChildExit): void {
    this.#exit = exit;
    this.#exitedAt = performance.now();
    this.#resolveExited(exit);
    this.#input.abandon(new TransportClosedError('The CLI process exited before the write completed'));
    this.#armQuietTimer();
    this.#maybeFinish();
  }

  /** Starts the quiet window: only after exit, only while the consumer waits and nothing is queued. */
  #armQuietTimer(): void {
    if (this.#exit === undefined || this.#stdoutEnded || this.#finishStarted) return;
    if (this.#quietTimer !== undefined || !this.#queue.isWaiting) return;
    this.#quietTimer = setTimeout(() => {
      this.#quietTimer = undefined;
      this.#quietExpired = true;
      this.#maybeFinish();
    }, this.#settings.quietAfterExitMs);
  }

  #clearQuietTimer(): void {
    clearTimeout(this.#quietTimer);
    this.#quietTimer = undefined;
  }

  #maybeFinish(): void {
    if (this.#finishStarted || this.#exit === undefined) return;
    if (!this.#stdoutEnded && !this.#quietExpired) return;
    this.#finishStarted = true;
    this.#clearQuietTimer();
    void this.#finishAfterExit(this.#exit);
  }

  async #finishAfterExit(exit: ChildExit): Promise<void> {
    if (!this.#discarding) {
      // A line still incomplete now will never be completed by the CLI: report it as truncated.
      this.#decoder.end();
      this.#discard();
    }
    try {
      await this.#stderrSettled();
      const clean = exit.exitCode === 0 && exit.signal === null;
      this.#decide(clean ? null : new ProcessExitError(exit.exitCode, exit.signal, this.#stderr.text));
      await this.#cleanupTree();
    } finally {
      this.#settle();
    }
  }

  /** stderr may still hold the CLI's last words; wait for its end, at most quietAfterExitMs after exit. */
  async #stderrSettled(): Promise<void> {
    const remaining = this.#settings.quietAfterExitMs - (performance.now() - this.#exitedAt);
    if (this.#stderrEnded || remaining <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, remaining)));
    await Promise.race([this.#stderrClosed, timeout]);
    clearTimeout(timer);
  }

  /** Reading cannot go on (oversized line, stdout failure): end frames() with `error`, close the child. */
  #failReading(error: Error): void {
    this.#decide(error);
    this.#discard();
    // Without a reader the CLI would block on a full pipe; a destroyed pipe makes its writes fail instead.
    this.#child.stdout.destroy();
    void this.#shutdownChild();
  }

  #shutdownChild(): Promise<void> {
    this.#shutdown ??= (async () => {
      try {
        this.endInput();
        if (!(await this.#exitWithin(this.#settings.stdinGraceMs))) {
          this.#signal('SIGTERM');
          if (!(await this.#exitWithin(this.#settings.termGraceMs))) {
            this.#signal('SIGKILL');
            await this.exited;
          }
        }
        await this.#cleanupTree();
      } finally {
        this.#settle();
      }
    })();
    return this.#shutdown;
  }

  async #exitWithin(ms: number): Promise<boolean> {
    return this.#exit !== undefined || (await settlesWithin(this.exited, ms));
  }

  #signal(signal: NodeJS.Signals): void {
    // Only while the leader is alive: afterwards its pid may belong to someone else.
    if (this.#exit !== undefined) return;
    if (!signalGroup(this.pid, signal)) signalProcess(this.pid, signal);
  }

  /** Runs once, after the CLI exited: kills the rest of the tree and releases the pipes. */
  #cleanupTree(): Promise<void> {
    this.#cleanup ??= (async () => {
      try {
        const { killed, survivors } = await killTree(this.#tree);
        if (killed.length > 0 || survivors.length > 0) {
          this.#diagnose({ kind: 'leftovers_killed', pids: killed, survivors });
        }
      } finally {
        this.#untrack();
        this.#clearQuietTimer();
        this.#child.stdout.destroy();
        this.#child.stderr.destroy();
        this.#child.stdin.destroy();
      }
    })();
    return this.#cleanup;
  }

  #settle(): void {
    this.#queue.finish(this.#verdict ?? undefined);
  }

  #decide(verdict: Error | null): void {
    if (this.#verdict === undefined) this.#verdict = verdict;
  }

  #discard(): void {
    this.#discarding = true;
    this.#clearQuietTimer();
    this.#child.stdout.resume();
  }

  /** Every stdio 'error' lands here; the input side keeps its first failure itself (StdinWriter). */
  #fail(cause: Error, stream: Exclude<StdioStreamName, 'process'>): void {
    // EPIPE and friends on stdin are expected once the CLI is gone or being closed.
    if (stream === 'stdin' && (this.#exit !== undefined || this.#closeRequested)) return;
    if (stream === 'stdout' && !this.#discarding) {
      this.#failReading(new TransportClosedError('Reading from the CLI failed', { cause }));
    }
    this.#diagnose({ kind: 'stdio_error', stream, error: cause });
  }

  #inputClosedError(): TransportClosedError | undefined {
    if (this.#closeRequested) return new TransportClosedError('The transport was closed');
    if (this.#exit !== undefined) {
      return new TransportClosedError(`The CLI process has exited (${describeExit(this.#exit)})`);
    }
    const failure = this.#input.failure;
    if (failure !== undefined)
      return new TransportClosedError('Writing to the CLI failed', { cause: failure });
    if (this.#input.ended) return new TransportClosedError('The input was ended (endInput)');
    return undefined;
  }

  #diagnose(diagnostic: TransportDiagnostic): void {
    const { onDiagnostic } = this.#settings;
    if (onDiagnostic !== undefined) this.#callback(() => onDiagnostic(diagnostic));
  }

  /** A throwing user callback must not break the stream; it becomes a process warning instead. */
  #callback(call: () => void): void {
    try {
      call();
    } catch (error) {
      process.emitWarning(toError(error));
    }
  }
}

function describeExit(exit: ChildExit): string {
  return exit.signal === null ? `code ${String(exit.exitCode)}` : `signal ${exit.signal}`;
}
