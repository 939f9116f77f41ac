// The name `warden serve --store` gives this host in its fleet when --host-name is not passed: the
// machine's name and a short hash of the data directory's absolute path. Stable across restarts of the same
// data directory (the host takes up its threads again), distinct for two data directories on one machine.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';

export function hostNameFor(given: string | undefined, dataDir: string): string {
  if (given !== undefined) return given;
  const fromEnv = process.env.WARDEN_HOST_NAME;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const path = resolve(dataDir);
  const machine =
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 60) || 'host';
  return `${machine}-${createHash('sha256').update(path).digest('hex').slice(0, 8)}`;
}
