// `warden hosts`: the hosts of a fleet sharing a PostgreSQL store, read straight from the database (no
// server needed, nothing written): each one's lease (live, or expired and since when), the CLIs it ran at
// its last heartbeat, its capacity and workspace roots.
import type { HostRecord } from '../store/host-registry.js';
import { readPostgresHosts } from '../store/read-only.js';
import { describeServer, isPostgresUrl } from '../store/store-target.js';
import { UsageError, type Command } from './args/index.js';

export async function hostsCommand(command: Extract<Command, { name: 'hosts' }>): Promise<number> {
  const store = command.store ?? (process.env.WARDEN_STORE_URL || undefined);
  if (store === undefined || !isPostgresUrl(store))
    throw new UsageError('warden hosts needs --store postgres://… (or WARDEN_STORE_URL)');
  let hosts: HostRecord[];
  try {
    hosts = await readPostgresHosts(store);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`warden: cannot read the hosts at ${describeServer(store)}: ${message}\n`);
    return 1;
  }
  if (command.json === true) {
    process.stdout.write(`${JSON.stringify({ hosts }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(formatHosts(hosts, describeServer(store)));
  return 0;
}

export function formatHosts(hosts: readonly HostRecord[], where: string): string {
  if (hosts.length === 0) return `No host has joined the fleet at ${where} yet.\n`;
  const rows = hosts.map((host) => [
    host.name,
    host.live ? 'live' : 'expired',
    `${(host.msSinceHeartbeat / 1000).toFixed(1)} s ago`,
    `${host.liveClis}${host.capacity === null ? '' : `/${host.capacity}`}`,
    String(host.pid),
    host.roots.length === 0 ? 'anywhere' : host.roots.join(', '),
  ]);
  const header = ['HOST', 'LEASE', 'HEARTBEAT', 'CLIS', 'PID', 'ROOTS'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .concat('\n');
  return [header, ...rows].map(line).join('');
}
