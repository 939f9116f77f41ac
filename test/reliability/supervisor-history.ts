// One history of the model-based test: a fresh supervisor on the backend's store, driven by the scripted
// CLI, starting with one supervised thread, then the commands, each checked against the model and the
// invariants. Used by the random histories and by the regression histories they found.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';

import { Supervisor } from '../../src/supervisor/index.js';
import { fakeQueries } from '../fixtures/supervisor-fake-query.js';
import type { StoreBackend } from '../helpers/store-backends.js';
import { CreateThread } from './supervisor-commands.js';
import { emptyModel, Real, type Model } from './supervisor-model.js';

/** Runs the history; resolves with how many of each operation it performed. */
export async function runHistory(
  backend: StoreBackend,
  commands: Iterable<fc.AsyncCommand<Model, Real>>,
): Promise<Map<string, number>> {
  const root = mkdtempSync(join(tmpdir(), 'warden-model-'));
  const { query, made } = fakeQueries();
  const warnings: unknown[] = [];
  const store = await backend.acquire();
  const options = {
    dataDir: join(root, 'data'),
    ...store.options,
    query,
    onWarning: (w: unknown) => warnings.push(w),
  };
  const real = new Real(await Supervisor.open(options), options, made, root, backend);
  const model = emptyModel();
  try {
    // Every history starts with one supervised thread (most commands need one).
    await new CreateThread('supervised').run(model, real);
    await fc.asyncModelRun(() => ({ model, real }), commands);
  } finally {
    await real.sup.close().catch(() => undefined);
    store.release();
    rmSync(root, { recursive: true, force: true });
  }
  return real.counts;
}
