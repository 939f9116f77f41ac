// Where the running server of a data directory is reached, kept beside its token so that `warden login`
// and `warden status` find a server on any port without being told. Written once the server listens,
// removed when it closes. A server that died leaves the file behind: it names the server's pid and start
// time, so a reader can tell a live server from a stale file (and never mistakes a reused pid for it).
// `warden status` sends the API token to the address it names, so a reader trusts the file only as the
// server left it: a regular file of this user that nobody else may write, in a directory of this user
// that nobody else may write to — anything else may have been planted or swapped by another local user.
import { lstatSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';

import { isAlive } from '../transport/exit-watch.js';
import { startTicksOf } from '../transport/process-tree.js';

export const ADDRESS_FILE = 'server.json';

export interface ServerAddress {
  readonly url: string;
  readonly pid: number;
  readonly startTicks: number | null;
}

/** Records `url` as this process's server of `dataDir` (0600, replaced whole, never half-written). */
export function writeAddressFile(dataDir: string, url: string): void {
  const address: ServerAddress = { url, pid: process.pid, startTicks: startTicksOf(process.pid) ?? null };
  const path = join(dataDir, ADDRESS_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(address)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Removes the file if it still names this process's server at `url` (a newer server may own it now). */
export function removeAddressFile(dataDir: string, url: string): void {
  const current = readAddressFile(dataDir);
  if (current?.url === url && current.pid === process.pid)
    rmSync(join(dataDir, ADDRESS_FILE), { force: true });
}

/** The recorded server, if the file exists and the process that wrote it still runs. */
export function liveServerAddress(dataDir: string): ServerAddress | undefined {
  const address = readAddressFile(dataDir);
  if (address === undefined) return undefined;
  return isAlive({ pid: address.pid, startTicks: address.startTicks ?? undefined }) ? address : undefined;
}

function readAddressFile(dataDir: string): ServerAddress | undefined {
  const path = join(dataDir, ADDRESS_FILE);
  let value: unknown;
  try {
    if (!ownedAndPrivate(statSync(dataDir)) || !ownedAndPrivate(lstatSync(path), true)) return undefined;
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const { url, pid, startTicks } = (value ?? {}) as Record<string, unknown>;
  if (typeof url !== 'string' || !isPlainOrigin(url)) return undefined;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
  return { url, pid, startTicks: typeof startTicks === 'number' ? startTicks : null };
}

/** Owned by this user and writable by nobody else (a file: a regular one, not a link to elsewhere). */
function ownedAndPrivate(stats: Stats, file = false): boolean {
  if (file ? !stats.isFile() : !stats.isDirectory()) return false;
  const uid = process.getuid?.();
  return (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
}

/** `http://host:port` and nothing more: no user info, path, query or fragment that could redirect it. */
function isPlainOrigin(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && parsed.origin === url && parsed.username === '';
  } catch {
    return false;
  }
}
