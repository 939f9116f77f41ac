// Keeping a spool small while its CLI runs for days. The CLI appends to the file through a descriptor the
// host cannot swap, so the file is never rotated; instead the processed part is turned into a hole
// (fallocate's punch-hole): its disk blocks are freed, while the file's length, and so every offset a host
// committed, stays as it was. File systems without hole punching keep the data; that costs disk, never
// correctness.
import { execFile } from 'node:child_process';

/** Punching is done in whole file-system blocks; the partial block at the edge is kept. */
const BLOCK_BYTES = 4096;

export type ReleaseOutcome = 'released' | 'nothing_to_release' | 'unsupported';

/**
 * Frees the disk space of the bytes before `processedOffset` (rounded down to a block). Never touches a
 * byte at or after it. Resolves 'unsupported' when the file system or the `fallocate` command cannot.
 */
export function releaseProcessed(path: string, processedOffset: number): Promise<ReleaseOutcome> {
  const length = Math.floor(processedOffset / BLOCK_BYTES) * BLOCK_BYTES;
  if (length <= 0) return Promise.resolve('nothing_to_release');
  return new Promise((resolve) => {
    execFile(
      'fallocate',
      ['--punch-hole', '--keep-size', '--offset', '0', '--length', String(length), path],
      (error) => resolve(error === null ? 'released' : 'unsupported'),
    );
  });
}
