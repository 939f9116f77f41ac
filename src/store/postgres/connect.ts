// Connecting a PostgresStore: its options checked once, here (a TypeError for a bad one); the connection
// worker started, holding the database for this host alone or as a named host of a fleet (listening for
// the other hosts' commits); the schema brought up to date; the host registered.
import { StoreError, WardenError } from '../../protocol/errors.js';
import type { FleetHostOptions } from '../host-registry.js';
import { describeServer, HOST_NAME_RULE, isHostName } from '../store-target.js';
import { registerHost } from './hosts.js';
import { HOST_LOCK_KEY, migratePostgres, namedHostLockKey } from './schema.js';
import type { LogNotice } from './protocol.js';
import { SyncChannel } from './sync-channel.js';

/** Starting the worker (loading the driver; under tsx, compiling it) before the first answer. */
const STARTUP_MARGIN_MS = 15_000;

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

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value > 0))
    throw new TypeError(`options.${name} must be a positive integer`);
  return value;
}

function checkHost(host: FleetHostOptions | undefined): Required<FleetHostOptions> | undefined {
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

export interface Connection {
  readonly channel: SyncChannel;
  /** host:port/database, for messages (never the password). */
  readonly where: string;
  readonly host: Required<FleetHostOptions> | undefined;
}

/**
 * Connects to `url` as `options` say. `onNotice` is called on each notification of a commit (for a host
 * of a fleet). A server that cannot be reached or set up is a StoreError.
 */
export function connect(
  url: string,
  options: PostgresStoreOptions,
  onNotice: (notice: LogNotice) => void,
): Connection {
  if (typeof url !== 'string' || url === '') throw new TypeError('url must be a non-empty string');
  const where = describeServer(url);
  const connectTimeoutMs = positive(options.connectTimeoutMs, 5000, 'connectTimeoutMs');
  const statementTimeoutMs = positive(options.statementTimeoutMs, 10_000, 'statementTimeoutMs');
  const host = checkHost(options.host);
  if (host !== undefined && options.exclusive === true)
    throw new TypeError('options.host and options.exclusive exclude each other');
  const channel = new SyncChannel(
    {
      url,
      where,
      connectTimeoutMs,
      statementTimeoutMs,
      exclusiveLockKey:
        host !== undefined ? namedHostLockKey(host.name) : options.exclusive === true ? HOST_LOCK_KEY : null,
      sharedLockKey: host === undefined ? null : HOST_LOCK_KEY,
    },
    connectTimeoutMs + statementTimeoutMs + 2000,
    host === undefined ? undefined : { name: `warden-listen:${host.name}`, onNotice },
  );
  try {
    // The first request also waits for the worker to start.
    channel.exec('none', [{ sql: 'SELECT 1' }], { timeoutMs: connectTimeoutMs + STARTUP_MARGIN_MS });
    migratePostgres(channel, undefined, where);
    if (host !== undefined) channel.exec('none', [registerHost(host)]);
    return { channel, where, host };
  } catch (error) {
    channel.close();
    throw openFailure(error, where);
  }
}

/** What a failure to open the store at `where` is thrown as. */
export function openFailure(error: unknown, where: string): WardenError {
  if (error instanceof WardenError) return error;
  return new StoreError(`Could not open the store at ${where}`, { cause: error });
}
