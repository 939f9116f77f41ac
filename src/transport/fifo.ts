// The stdin of a detached CLI: a named pipe that the CLI itself holds open for reading *and* writing, so
// it never sees end-of-file when a host goes away, and any later host can open it and go on writing.
//
// The host opens its end write-only and non-blocking: opening fails at once with ENXIO when no process
// holds the pipe for reading (the CLI is gone), instead of blocking the event loop forever, and a
// net.Socket over the descriptor lets libuv wait for room in the pipe instead of a thread-pool write that
// could block for good. A write of up to PIPE_BUF bytes is atomic. A longer line goes out in as many
// writes as the pipe has room for (64 KiB by default), so a host that lets go of the pipe waits for the
// line under way (DetachedTransport.detach); only a host killed while such a line is half in the pipe can
// leave a partial line, which the CLI refuses (it exits on a malformed input line, checked with CLI
// 2.1.328), so the thread then continues as after any lost CLI: resume by id.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { Socket } from 'node:net';

import { SpawnError, TransportClosedError } from '../protocol/errors.js';

/** Writes of at most this many bytes reach the reader whole, even when other writers share the pipe. */
export const PIPE_BUF = 4096;

/** Creates a named pipe only its owner can open. Throws SpawnError when `mkfifo` fails. */
export function makeFifo(path: string): void {
  try {
    execFileSync('mkfifo', ['-m', '600', path], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new SpawnError(
      'mkfifo',
      (error as NodeJS.ErrnoException).code,
      stderr || `could not create ${path}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Opens the pipe for the CLI's side: read and write, so that the CLI's stdin never reaches EOF. The
 * caller hands the descriptor to the child and closes its own copy.
 */
export function openFifoForChild(path: string): number {
  return openSync(path, constants.O_RDWR);
}

/**
 * Opens the host's writing end. Throws TransportClosedError when nobody reads the pipe any more (the CLI
 * exited), or when `path` is not a named pipe.
 */
export function openFifoWriter(path: string): Socket {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENXIO' ? 'no process reads it (the CLI has exited)' : `open failed (${code ?? 'unknown'})`;
    throw new TransportClosedError(`Cannot write to the CLI's input ${path}: ${why}`, { cause: error });
  }
  try {
    return new Socket({ fd, readable: false, writable: true });
  } catch (error) {
    closeSync(fd);
    throw new TransportClosedError(`${path} is not a named pipe`, { cause: error });
  }
}
