// The supervisor's persistence: an append-only event log plus projections, behind the Store interface.
export type { Store, ApprovalFilter, EventQuery } from './store.js';
export { SqliteStore } from './sqlite-store.js';
export { openStore, DATABASE_FILE, type OpenStoreOptions } from './open-store.js';
export type { FleetHostOptions, HostRecord, HostRegistry } from './host-registry.js';
export { MIGRATIONS, migrate, schemaVersion, type Migration } from './migrations.js';
export * from './records.js';
export * from './event-types.js';
