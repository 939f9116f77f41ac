// The store's own rate beside the end-to-end one: what a decision costs the store alone, measured in the
// same run on a fresh store of the same kind. A decision is two commits (`approval.requested`, then
// `approval.decided`), as through the supervisor; `group` decisions are committed, then one durable() — what
// the supervisor's concurrent requests share at best.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore, type Store } from '../../src/store/index.js';
import { decided, requested, threadDrafts } from '../lib/decision-drafts.js';

export interface StoreRate {
  readonly commitsPerSecond: number;
  readonly decisionsPerSecond: number;
}

async function measure(store: Store, decisions: number, group: number): Promise<StoreRate> {
  store.commit('t', threadDrafts('t'));
  await store.durable();
  const began = performance.now();
  for (let first = 0; first < decisions; first += group) {
    const last = Math.min(first + group, decisions);
    for (let i = first; i < last; i += 1) {
      store.commit('t', [requested(i)]);
      store.commit('t', [decided(i)]);
    }
    await store.durable();
  }
  const seconds = (performance.now() - began) / 1000;
  return { commitsPerSecond: (2 * decisions) / seconds, decisionsPerSecond: decisions / seconds };
}

/** SQLite in a fresh directory, or PostgreSQL in the database `postgresUrl` names (fresh, made for this). */
export async function storeRate(
  postgresUrl: string | undefined,
  decisions: number,
  group: number,
): Promise<StoreRate> {
  if (postgresUrl !== undefined) {
    const store = PostgresStore.open(postgresUrl);
    try {
      return await measure(store, decisions, group);
    } finally {
      store.close();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-rate-'));
  const store = SqliteStore.open(join(dir, 'warden.db'));
  try {
    return await measure(store, decisions, group);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
