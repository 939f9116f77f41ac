// Where the running server of a data directory is reached, kept beside its token so that `warden login`
// and `warden status` find a server on any port without being told. Written once the server listens,
// removed when it closes. A server that died leaves the file behind: it names the server's pid and start
// time, so a reader can tell a live server from a stale file (and never mistakes a reused pid for it).
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(dataDir, ADDRESS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const { url, pid, startTicks } = (value ?? {}) as Record<string, unknown>;
  if (typeof url !== 'string' || !/^http:\/\/[^/]+$/.test(url)) return undefined;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
  return { url, pid, startTicks: typeof startTicks === 'number' ? startTicks : null };
}
