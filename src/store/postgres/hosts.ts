// The hosts of a fleet in PostgreSQL: each registers under its name (what it can run: capacity, workspace
// roots) and keeps a lease by heartbeat. A host whose last heartbeat is older than its lease is taken to
// be gone. The server's clock decides (now()), so hosts with skewed clocks still agree.
import type { HostRecord } from '../host-registry.js';
import type { Statement } from './protocol.js';

export interface HostRegistration {
  readonly name: string;
  readonly capacity: number | null;
  readonly roots: readonly string[];
  readonly leaseMs: number;
}

/** Registers (or takes up again, after a restart) the host; the name is locked by its connection. */
export function registerHost(host: HostRegistration): Statement {
  return {
    sql: `INSERT INTO warden_hosts (name, capacity, roots, pid, started_at, heartbeat_at, lease_ms, live_clis)
          VALUES ($1, $2, $3, $4, now(), now(), $5, 0)
          ON CONFLICT (name) DO UPDATE SET capacity = excluded.capacity, roots = excluded.roots,
            pid = excluded.pid, started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at,
            lease_ms = excluded.lease_ms, live_clis = 0, placed = 0`,
    params: [host.name, host.capacity, JSON.stringify(host.roots), process.pid, host.leaseMs],
  };
}

export function heartbeat(name: string, liveClis: number): Statement {
  return {
    // The count of CLIs replaces the placements made since the last beat: a thread placed here whose CLI
    // runs is among them, one that has not started one holds no capacity (capacity counts working agents).
    sql: 'UPDATE warden_hosts SET heartbeat_at = now(), live_clis = $2, placed = 0 WHERE name = $1',
    params: [name, liveClis],
  };
}

/**
 * Reserves room for one more thread on a live host, compare-and-set on its row: one statement that adds
 * the placement only while its CLIs at the last heartbeat plus the placements since stay under its
 * capacity, so two hosts placing at once cannot both take its last slot (the second waits for the first's
 * row lock and checks the row as the first left it). `liveNow` is given by the host placing a thread on
 * itself: its CLIs now, fresher than its last beat. Returns one row when reserved, none when not (full,
 * gone, or unknown).
 */
export function reservePlacement(name: string, liveNow: number | null): Statement {
  return {
    sql: `UPDATE warden_hosts SET placed = placed + 1, live_clis = coalesce($2::integer, live_clis)
          WHERE name = $1 AND now() - heartbeat_at < make_interval(secs => lease_ms / 1000.0)
            AND (capacity IS NULL OR coalesce($2::integer, live_clis) + placed < capacity)
          RETURNING name`,
    params: [name, liveNow],
  };
}

/** Ends the lease at once (a host that closes cleanly). */
export function releaseHost(name: string): Statement {
  return {
    sql: `UPDATE warden_hosts SET heartbeat_at = now() - make_interval(secs => lease_ms / 1000.0 + 1),
            live_clis = 0, placed = 0 WHERE name = $1`,
    params: [name],
  };
}

/**
 * Within an adoption's transaction: whether the old owner's lease is live, its row locked (FOR UPDATE) so
 * that its registration and heartbeat wait for the adoption to commit. No row: it never registered.
 */
export function lockOwnerLease(name: string): Statement {
  return {
    sql: `SELECT (extract(epoch FROM now() - heartbeat_at) * 1000)::bigint < lease_ms AS live
          FROM warden_hosts WHERE name = $1 FOR UPDATE`,
    params: [name],
  };
}

export const listHostsStatement: Statement = {
  // `placed` through the row's JSON: readers (warden hosts, status) may meet a schema from before it.
  sql: `SELECT name, capacity, roots, pid, started_at, heartbeat_at, lease_ms, live_clis,
          coalesce((to_jsonb(h) ->> 'placed')::integer, 0) AS placed,
          (extract(epoch FROM now() - heartbeat_at) * 1000)::bigint AS ms_since
        FROM warden_hosts h ORDER BY name`,
};

export function hostsOfRows(rows: readonly Record<string, unknown>[] | undefined): HostRecord[] {
  return (rows ?? []).map((row) => {
    const leaseMs = Number(row.lease_ms);
    const msSinceHeartbeat = Math.max(0, Number(row.ms_since));
    let roots: string[] = [];
    try {
      const parsed: unknown = JSON.parse(String(row.roots));
      if (Array.isArray(parsed)) roots = parsed.filter((root): root is string => typeof root === 'string');
    } catch {
      // A row written by hand: no roots.
    }
    return {
      name: String(row.name),
      capacity: row.capacity === null ? null : Number(row.capacity),
      roots,
      pid: Number(row.pid),
      startedAt: new Date(row.started_at as string | Date).toISOString(),
      heartbeatAt: new Date(row.heartbeat_at as string | Date).toISOString(),
      leaseMs,
      msSinceHeartbeat,
      live: msSinceHeartbeat < leaseMs,
      liveClis: Number(row.live_clis),
      placed: Number(row.placed ?? 0),
    };
  });
}
