// A real disk that fills: a small tmpfs mounted for one test, a filler file that takes every free byte
// (writes then fail with ENOSPC, which SQLite reports as SQLITE_FULL), and room made again by deleting
// it. Mounting needs root (CAP_SYS_ADMIN); elsewhere the test that asks for one is skipped, saying why.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  /** The mount point: an empty directory on the small disk. */
  readonly dir: string;
  /** Takes every free byte: from now on a write that needs a new block fails with ENOSPC. */
  fill(): void;
  /** Gives the space back. */
  makeRoom(): void;
  /** Free bytes now. */
  free(): number;
  /** Unmounts it (lazily if something still holds a file on it) and removes the mount point. */
  unmount(): void;
}

/** Why a small disk cannot be had here, or undefined when it can (checked once, by mounting one). */
export const smallDiskUnavailable: string | undefined = probe();

function probe(): string | undefined {
  if (process.platform !== 'linux') return 'a tmpfs disk needs Linux';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root (CAP_SYS_ADMIN); not running as root';
  const dir = mkdtempSync(join(tmpdir(), 'warden-disk-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs is not permitted here: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Mounts a tmpfs of `bytes`; the caller unmounts it once whatever uses it is closed. */
export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'warden-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  const filler = join(dir, 'filler');
  const free = (): number => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    free,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Big blocks, then page-sized ones for the rest: tmpfs hands out whole pages.
        for (const size of [1 << 16, 4096, 512]) {
          const block = Buffer.alloc(size);
          for (;;) {
            try {
              writeSync(fd, block);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    makeRoom() {
      rmSync(filler, { force: true });
    },
    unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        // Something still holds a file on it (a failed test): detach it now, freed when released.
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
