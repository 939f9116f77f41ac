// How a PostgresStore is opened: its timeouts, whether it holds the database alone, and its place in a
// fleet; each option checked once, here, with a TypeError for a bad one.
import { HOST_NAME_RULE, isHostName } from '../store-target.js';
import type { FleetHostOptions } from '../host-registry.js';

export interface PostgresStoreOptions {
  /** How long connecting may take before the store reports the server unreachable (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Postgres's statement_timeout and lock_timeout for every statement (default 10000 ms). */
  statementTimeoutMs?: number;
  /**
   * Hold the store for this host alone (default false): a second exclusive open fails with a StoreError,
   * as a second SQLite host does. The supervisor opens its store so until hosts of a fleet are told apart.
   */
  exclusive?: boolean;
  /**
   * This host's place in a fleet: registered under its name (locked: no two live hosts share one), a
   * lease kept by heartbeat, its commits marked with the name, and the commits of other hosts followed
   * (LISTEN plus a sweep; see HostRegistry.follow()). Not with `exclusive`.
   */
  host?: FleetHostOptions;
}

export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value > 0))
    throw new TypeError(`options.${name} must be a positive integer`);
  return value;
}

export function checkHost(host: FleetHostOptions | undefined): Required<FleetHostOptions> | undefined {
  if (host === undefined) return undefined;
  if (typeof host !== 'object' || host === null) throw new TypeError('options.host must be an object');
  if (!isHostName(host.name)) throw new TypeError(`options.host.name must be ${HOST_NAME_RULE}`);
  const capacity = host.capacity ?? null;
  if (capacity !== null && !(Number.isSafeInteger(capacity) && capacity >= 0))
    throw new TypeError('options.host.capacity must be a non-negative integer');
  const roots = host.roots ?? [];
  if (!Array.isArray(roots) || roots.some((root) => typeof root !== 'string' || !root.startsWith('/')))
    throw new TypeError('options.host.roots must be absolute paths');
  const leaseMs = positive(host.leaseMs, 15_000, 'host.leaseMs');
  const heartbeatMs = positive(host.heartbeatMs, 5000, 'host.heartbeatMs');
  if (heartbeatMs >= leaseMs)
    throw new TypeError('options.host.heartbeatMs must be shorter than its leaseMs');
  const sweepMs = positive(host.sweepMs, 1000, 'host.sweepMs');
  return { name: host.name, capacity, roots, leaseMs, heartbeatMs, sweepMs };
}
