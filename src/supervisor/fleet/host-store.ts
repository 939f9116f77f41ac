// The store a supervisor runs on, and its membership of a fleet: a supervisor opened with a host name on
// a store that hosts share (PostgreSQL) is one host of that fleet, and recovers, re-attaches and runs only
// the threads it owns (fleet.ts); any other runs every thread in its store.
import type { FleetHostOptions } from '../../store/host-registry.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/store.js';
import { FleetMembership } from './fleet.js';

export interface HostStore {
  readonly store: Store;
  /** Undefined for a host that is no member of a fleet. */
  readonly fleet: FleetMembership | undefined;
}

/** Opens the store at `target` (a data directory or a postgres:// URL), as `host` of its fleet if given. */
export function openHostStore(target: string, host: FleetHostOptions | undefined): HostStore {
  const store = openStore(target, host === undefined ? {} : { host });
  const registry = store.hosts();
  const fleet =
    host === undefined || registry === undefined
      ? undefined
      : new FleetMembership(store, registry, host.name);
  return { store, fleet };
}
