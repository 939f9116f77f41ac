// The Transport over a detached CLI (detached-child.ts): frames from its spool, writes into its input pipe,
// its exit noticed by pid and start time. It speaks the same surface as ChildTransport, so the session
// layer drives either, and adds two things a durable host needs: every frame carries the spool offset
// just past it (spoolOffsetOf), to be committed with what the frame produced; and detach(), which lets go
// of the CLI without ending it, for the next host to attach to.
//
// The CLI holds its own input pipe open, so it never sees end-of-file: ending its input means asking it
// to exit (SIGTERM to its group). Any exit that was not asked for is an error, and a host that attached to
// a CLI it did not spawn cannot learn the exit status (it is not the parent): it reports the exit without.
import { open } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

import { ProcessExitError, TransportClosedError, WardenError, toError } from '../protocol/errors.js';
import type { ChildExit } from './child-transport.js';
import type { CliTransport } from './cli-transport.js';
import { removeDetachedFiles, type DetachedPaths } from './detached-child.js';
import { endWatchdog } from './detached-lifetime.js';
import type { TransportDiagnostic } from './diagnostics.js';
import { isAlive, watchExit, type ProcessIdentity } from './exit-watch.js';
import { openFifoWriter } from './fifo.js';
import { DEFAULT_MAX_FRAME_BYTES } from './line-decoder.js';
import { killTree, signalGroup } from './process-tree.js';
import { SpoolReader } from './spool-reader.js';
import { releaseProcessed } from './spool-space.js';
import { StdinWriter } from './stdin-writer.js';

type Frame = Record<string, unknown>;

const SPOOL_OFFSET = Symbol('warden.spoolOffset');
const STDERR_TAIL_BYTES = 8 * 1024;
/** Processed spool is given back to the file system in steps of at least this much, */
const RELEASE_STEP_BYTES = 1024 * 1024;
/**
 * and at most this often: each step runs a `fallocate` process, and forking it costs the host several
 * milliseconds of CPU. A burst of output is released in a few large steps instead of one per MiB.
 */
const RELEASE_INTERVAL_MS = 100;
const EXCERPT_CHARS = 200;
/**
 * detach(): how long a write already under way may take to finish. A line longer than the pipe holds goes
 * out in several writes; cut short, it would leave the CLI half a line, on which it exits.
 */
const DETACH_WRITE_GRACE_MS = 2000;

/** The spool offset just past `frame`, for frames read by a DetachedTransport; undefined otherwise. */
export function spoolOffsetOf(frame: object): number | undefined {
  const offset = (frame as { [SPOOL_OFFSET]?: unknown })[SPOOL_OFFSET];
  return typeof offset === 'number' ? offset : undefined;
}

export interface DetachedTransportOptions {
  readonly paths: DetachedPaths;
  readonly identity: ProcessIdentity;
  /** The marker variable's value in the CLI's environment, to find descendants that left its group. */
  readonly marker: string;
  /** Where to read on: 0 for a CLI just spawned, the committed offset when attaching again. */
  readonly offset?: number;
  /** The CLI was started by an earlier host: see CliTransport.attaching. */
  readonly attaching?: boolean;
  /** Only for the host that spawned the CLI: the exit as its parent hears it, with the status. */
  readonly exited?: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly maxFrameBytes?: number;
  readonly onDiagnostic?: (diagnostic: TransportDiagnostic) => void;
  /** close(): how long the CLI may take to exit after SIGTERM before SIGKILL. Default 2000 ms. */
  readonly termGraceMs?: number;
  /** How often to look for output and for the exit when no notification comes. */
  readonly pollMs?: number;
}

export class DetachedTransport implements CliTransport {
  readonly pid: number;
  /** Resolves once, when the CLI exits; the status is null for a CLI this host did not spawn. */
  readonly exited: Promise<ChildExit>;
  readonly attaching: boolean;

  readonly #options: DetachedTransportOptions;
  readonly #reader: SpoolReader;
  readonly #stopWatching = new AbortController();
  #input: StdinWriter | undefined;
  #exit: ChildExit | undefined;
  /** Set when this host asked the CLI to exit, or let go of it: the end of frames() is then clean. */
  #ending: 'exit' | 'detach' | undefined;
  #framesTaken = false;
  #closing: Promise<void> | undefined;
  #detaching: Promise<void> | undefined;
  #offset: number;
  /** The offset the last step started released up to. */
  #released = 0;
  /** The largest offset a caller said is committed. */
  #committed = 0;
  #lastStepAt = Number.NEGATIVE_INFINITY;
  /** The step waiting for its turn, if any; later calls join it. */
  #nextStep: Promise<unknown> | undefined;
  #releasing: Promise<unknown> = Promise.resolve();
  /** Aborted when this host stops using the spool: a step still waiting is dropped. */
  readonly #stopReleasing = new AbortController();

  constructor(options: DetachedTransportOptions) {
    this.#options = options;
    this.pid = options.identity.pid;
    this.attaching = options.attaching ?? false;
    this.#offset = options.offset ?? 0;
    this.#reader = new SpoolReader({
      path: options.paths.output,
      offset: this.#offset,
      maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      onTruncatedTail: (byteLength) => this.#diagnose({ kind: 'truncated_tail', excerpt: '', byteLength }),
    });
    const parentExit = options.exited?.then(({ code, signal }) => ({ exitCode: code, signal }));
    const watched = watchExit(options.identity, {
      signal: this.#stopWatching.signal,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    }).then((): ChildExit => ({ exitCode: null, signal: null }));
    // The parent's report carries the status; the watch is what a host that attached later has.
    this.exited = (parentExit === undefined ? watched : Promise.race([parentExit, watched])).then((exit) => {
      this.#exit = exit;
      this.#reader.finish();
      this.#input?.abandon(new TransportClosedError('The CLI process exited before the write completed'));
      return exit;
    });
  }

  /** The spool offset just past the last frame handed out. */
  get offset(): number {
    return this.#offset;
  }

  /**
   * Single consumer. Every frame the CLI wrote from the starting offset on, each tagged with the offset
   * just past it. Ends cleanly after close() or detach(); throws ProcessExitError when the CLI exited
   * on its own (after delivering everything it wrote), FrameTooLargeError for an oversized line.
   */
  async *frames(): AsyncGenerator<Frame, void, undefined> {
    if (this.#framesTaken) throw new TypeError('DetachedTransport.frames() has a single consumer');
    this.#framesTaken = true;
    for await (const batch of this.#reader.batches()) {
      for (const line of batch) {
        // Stopped in the middle of a batch: the rest stays in the spool for the next reader.
        if (this.#ending !== undefined) return;
        this.#offset = line.end;
        const frame = parseFrame(line.text);
        if (frame === undefined) {
          this.#diagnose({
            kind: 'non_json',
            excerpt: line.text.slice(0, EXCERPT_CHARS),
            byteLength: Buffer.byteLength(line.text),
          });
          continue;
        }
        Object.defineProperty(frame, SPOOL_OFFSET, { value: line.end, enumerable: false });
        yield frame;
      }
    }
    if (this.#ending !== undefined) return;
    const exit = this.#exit ?? { exitCode: null, signal: null };
    if (exit.exitCode === 0 && exit.signal === null) return;
    const unknown = exit.exitCode === null && exit.signal === null;
    throw new ProcessExitError(
      exit.exitCode,
      exit.signal,
      await this.stderrTail(),
      unknown ? 'it exited while this host was not its parent, so its exit status is unknown' : undefined,
    );
  }

  /** Writes JSON.stringify(frame) + '\n' into the CLI's input pipe; rejects TransportClosedError. */
  send(frame: unknown): Promise<void> {
    if (this.#ending !== undefined)
      return Promise.reject(new TransportClosedError('The transport was closed'));
    if (this.#exit !== undefined)
      return Promise.reject(new TransportClosedError('The CLI process has exited'));
    const line = JSON.stringify(frame) as string | undefined;
    if (typeof line !== 'string') return Promise.reject(new TypeError('send(): the frame is not JSON'));
    try {
      this.#input ??= new StdinWriter(openFifoWriter(this.#options.paths.input), (error) =>
        this.#diagnose({ kind: 'stdio_error', stream: 'stdin', error }),
      );
    } catch (error) {
      return Promise.reject(WardenError.isWardenError(error) ? error : toError(error));
    }
    return this.#input.write(`${line}\n`);
  }

  /**
   * The host has committed everything before `offset`: the spool's disk space before it may go. Done in
   * steps of at least 1 MiB, one at a time and at most one per 100 ms, in the background; a step covers
   * the largest offset committed by the time it starts, and the promise settles when the step that covers
   * `offset` is done. A file system that cannot punch holes keeps the data.
   */
  releaseBefore(offset: number): Promise<unknown> {
    if (offset > this.#offset) return this.#releasing;
    this.#committed = Math.max(this.#committed, offset);
    if (this.#committed - this.#released < RELEASE_STEP_BYTES) return this.#nextStep ?? this.#releasing;
    if (this.#nextStep === undefined) {
      this.#releasing = this.#releasing.then(() => this.#releaseStep());
      this.#nextStep = this.#releasing;
    }
    return this.#nextStep;
  }

  async #releaseStep(): Promise<unknown> {
    const { signal } = this.#stopReleasing;
    const wait = this.#lastStepAt + RELEASE_INTERVAL_MS - performance.now();
    // Keeps the host alive for at most the interval, so that a caller awaiting the release sees it settle;
    // close() and detach() cut it short.
    if (wait > 0) await delay(wait, undefined, { signal }).catch(() => undefined);
    this.#nextStep = undefined;
    if (signal.aborted) return 'nothing_to_release';
    this.#released = this.#committed;
    this.#lastStepAt = performance.now();
    return releaseProcessed(this.#options.paths.output, this.#released);
  }

  /** The CLI never sees the end of its input pipe: ending input asks it to exit. Idempotent. */
  endInput(): void {
    void this.close();
  }

  get inputEnded(): boolean {
    return this.#ending !== undefined;
  }

  /**
   * Ends the CLI: SIGTERM to its group, SIGKILL after the grace, then whatever escaped the group; then
   * removes its pipe and spool. frames() ends without an error. Idempotent; resolves when all is gone.
   */
  close(): Promise<void> {
    this.#closing ??= this.#closeOnce();
    return this.#closing;
  }

  /**
   * Lets go of the CLI without ending it: stops reading, accepts no more writes, leaves the process, its
   * pipe and its spool for the next host. frames() ends without an error. A write already under way is
   * let finish (for at most 2 s), so the CLI never receives half a line; resolves once the pipe is let go.
   */
  detach(): Promise<void> {
    if (this.#ending !== undefined) return this.#detaching ?? Promise.resolve();
    this.#ending = 'detach';
    this.#stopWatching.abort();
    this.#stopReleasing.abort();
    this.#reader.close();
    this.#detaching =
      this.#input?.release(DETACH_WRITE_GRACE_MS, new TransportClosedError('The transport was detached')) ??
      Promise.resolve();
    return this.#detaching;
  }

  /** The last 8 KiB of the CLI's stderr file. */
  async stderrTail(): Promise<string> {
    try {
      const handle = await open(this.#options.paths.errors, 'r');
      try {
        const { size } = await handle.stat();
        const length = Math.min(size, STDERR_TAIL_BYTES);
        const buffer = Buffer.alloc(length);
        await handle.read(buffer, 0, length, size - length);
        return buffer.toString('utf8');
      } finally {
        await handle.close();
      }
    } catch {
      return '';
    }
  }

  async #closeOnce(): Promise<void> {
    this.#ending ??= 'exit';
    this.#release();
    const { identity, marker } = this.#options;
    if (this.#exit === undefined && isAlive(identity)) {
      signalGroup(identity.pid, 'SIGTERM');
      if (!(await this.#exitWithin(this.#options.termGraceMs ?? 2000)) && isAlive(identity))
        signalGroup(identity.pid, 'SIGKILL');
    }
    const tree = { pgid: identity.pid, marker, startTicks: identity.startTicks };
    // What is left now is the CLI's, but for its watchdog, which outlives it by up to a few seconds.
    await endWatchdog(tree);
    const { killed, survivors } = await killTree(tree);
    if (killed.length > 0 || survivors.length > 0)
      this.#diagnose({ kind: 'leftovers_killed', pids: killed, survivors });
    await this.#releasing;
    removeDetachedFiles(this.#options.paths);
  }

  #release(): void {
    this.#stopReleasing.abort();
    this.#reader.close();
    this.#input?.abandon(new TransportClosedError('The transport was closed'));
  }

  async #exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(resolve, ms, false);
    });
    const exited = await Promise.race([this.exited.then(() => true), timeout]);
    clearTimeout(timer);
    return exited;
  }

  #diagnose(diagnostic: TransportDiagnostic): void {
    const { onDiagnostic } = this.#options;
    if (onDiagnostic === undefined) return;
    try {
      onDiagnostic(diagnostic);
    } catch (error) {
      process.emitWarning(toError(error));
    }
  }
}

function parseFrame(text: string): Frame | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Frame)
      : undefined;
  } catch {
    return undefined;
  }
}
