// A transport over a process the application started itself (the `spawnClaudeCodeProcess` option: a
// container, a VM, another machine). Warden sees only what the spawner returns — stdin, stdout, kill()
// and the 'exit' event — so it keeps what does not need more: frames in order with backpressure, every
// line written before the exit delivered, writes that fail once the process is gone, the exit error, and
// the close escalation (stdin EOF → grace → abort signal and SIGTERM → grace → SIGKILL). It cannot see
// stderr (no stderr tail in errors), the process group or descendants: cleaning those up is the spawner's.
import { ProcessExitError, TransportClosedError, toError, WardenError } from '../protocol/errors.js';
import type { ChildExit } from './child-transport.js';
import type { TransportDiagnostic } from './diagnostics.js';
import { FrameQueue } from './frame-queue.js';
import { LineDecoder } from './line-decoder.js';
import { settlesWithin } from './settles-within.js';
import { StdinWriter } from './stdin-writer.js';
import type { Readable, Writable } from 'node:stream';

/** The part of the spawner's process Warden uses (a Node ChildProcess satisfies it). */
export interface SpawnedChild {
  stdin: Writable;
  stdout: Readable;
  readonly exitCode: number | null;
  readonly signalCode?: NodeJS.Signals | null;
  readonly pid?: number;
  kill(signal: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  once(event: 'error', listener: (error: Error) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

export interface SpawnedTransportOptions {
  maxFrameBytes?: number;
  /** Aborted when the graceful stop did not end the process (handed to the spawner as `signal`). */
  abort: AbortController;
  onDiagnostic: (diagnostic: TransportDiagnostic) => void;
  stdinGraceMs?: number;
  termGraceMs?: number;
  /** After the exit, how long a silent stdout is waited for before the stream ends anyway. */
  quietAfterExitMs?: number;
}

type Frame = Record<string, unknown>;

export class SpawnedTransport {
  readonly pid: number;
  readonly exited: Promise<ChildExit>;
  readonly #child: SpawnedChild;
  readonly #options: SpawnedTransportOptions;
  readonly #queue: FrameQueue;
  readonly #decoder: LineDecoder;
  readonly #input: StdinWriter;
  #batch: Frame[] = [];
  #exit: ChildExit | undefined;
  #stdoutEnded = false;
  #finished = false;
  #closing: Promise<void> | undefined;
  #quietTimer: NodeJS.Timeout | undefined;

  constructor(child: SpawnedChild, options: SpawnedTransportOptions) {
    this.#child = child;
    this.#options = options;
    this.pid = typeof child.pid === 'number' ? child.pid : -1;
    let resolveExited!: (exit: ChildExit) => void;
    this.exited = new Promise((resolve) => (resolveExited = resolve));
    this.#decoder = new LineDecoder({
      ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
      onFrame: (frame) => this.#batch.push(frame),
      onDiagnostic: (diagnostic) => options.onDiagnostic(diagnostic),
    });
    this.#input = new StdinWriter(child.stdin, () => undefined);
    this.#queue = new FrameQueue({
      onEmpty: () => child.stdout.resume(),
      onWaiting: () => child.stdout.resume(),
      onReturn: () => void this.close(),
    });
    const onExit = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (this.#exit !== undefined) return;
      this.#exit = { exitCode, signal };
      resolveExited(this.#exit);
      this.#input.abandon(new TransportClosedError('The CLI process exited before the write completed'));
      // A remote stdout may never end: deliver what came, then end after a quiet window.
      this.#quietTimer = setTimeout(() => this.#finish(), options.quietAfterExitMs ?? 200);
      this.#quietTimer.unref();
      if (this.#stdoutEnded) this.#finish();
    };
    child.once('exit', onExit);
    child.on('error', (error) => {
      if (this.#exit === undefined && !this.#finished)
        this.#fail(new TransportClosedError('The spawned CLI process failed', { cause: error }));
    });
    child.stdout.on('data', (chunk: Buffer | string) =>
      this.#onData(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    );
    child.stdout.on('end', () => this.#onStdoutEnd());
    child.stdout.on('close', () => this.#onStdoutEnd());
    child.stdout.on('error', (error) =>
      this.#fail(new TransportClosedError('Reading from the CLI failed', { cause: error })),
    );
    // A process that had already exited when it was handed over.
    if (child.exitCode !== null || (child.signalCode ?? null) !== null)
      onExit(child.exitCode, child.signalCode ?? null);
  }

  frames(): AsyncIterableIterator<Frame> {
    return this.#queue;
  }

  send(frame: unknown): Promise<void> {
    if (this.#closing !== undefined)
      return Promise.reject(new TransportClosedError('The transport was closed'));
    if (this.#exit !== undefined)
      return Promise.reject(new TransportClosedError('The CLI process has exited'));
    if (this.#input.ended) return Promise.reject(new TransportClosedError('The input was ended (endInput)'));
    return this.#input.write(`${JSON.stringify(frame)}\n`);
  }

  endInput(): void {
    this.#input.end();
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#queue.abort();
      this.#finished = true;
      this.#child.stdout.resume();
      this.endInput();
      if (await this.#exitWithin(this.#options.stdinGraceMs ?? 2000)) return;
      this.#options.abort.abort();
      this.#kill('SIGTERM');
      if (await this.#exitWithin(this.#options.termGraceMs ?? 2000)) return;
      this.#kill('SIGKILL');
      await this.#exitWithin(this.#options.termGraceMs ?? 2000);
    })();
    return this.#closing;
  }

  #kill(signal: NodeJS.Signals): void {
    try {
      this.#child.kill(signal);
    } catch (error) {
      this.#options.onDiagnostic({ kind: 'stdio_error', stream: 'process', error: toError(error) });
    }
  }

  async #exitWithin(ms: number): Promise<boolean> {
    return this.#exit !== undefined || (await settlesWithin(this.exited, ms));
  }

  #onData(chunk: Buffer): void {
    if (this.#finished) return;
    this.#batch = [];
    try {
      this.#decoder.push(chunk);
    } catch (error) {
      this.#queue.push(this.#batch, chunk.length);
      this.#fail(WardenError.isWardenError(error) ? error : toError(error));
      return;
    }
    this.#queue.push(this.#batch, chunk.length);
    if (!this.#queue.isEmpty) this.#child.stdout.pause();
  }

  #onStdoutEnd(): void {
    if (this.#stdoutEnded) return;
    this.#stdoutEnded = true;
    if (!this.#finished) this.#decoder.end();
    if (this.#exit !== undefined) this.#finish();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#quietTimer);
    const exit = this.#exit;
    const clean = exit !== undefined && exit.exitCode === 0 && exit.signal === null;
    this.#queue.finish(
      clean || exit === undefined ? undefined : new ProcessExitError(exit.exitCode, exit.signal, ''),
    );
    this.#child.stdout.resume();
  }

  #fail(error: Error): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#queue.finish(error);
    void this.close();
  }
}
