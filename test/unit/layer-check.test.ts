// The layer check of `npm run check` (scripts/check-layers.mjs): it finds an import against the order, a
// type-only cycle, an import of a missing file and a folder in no layer, each in a small tree made here; and
// src/ itself keeps the order.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { checkLayers } from '../../scripts/check-layers.mjs';

const check = checkLayers as (srcDir: string, layers?: string[][]) => string[];
const scratch = mkdtempSync(join(tmpdir(), 'warden-layers-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const src = join(scratch, name, 'src');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  return src;
}
const LAYERS = [['protocol'], ['store'], ['supervisor'], ['cli']];

test('an import of a higher layer is named with both files and both layers', () => {
  const src = tree('upward', {
    'protocol/errors.ts': 'export class E {}\n',
    'store/store.ts':
      "import { E } from '../protocol/errors.js';\nimport type { S } from '../supervisor/s.js';\n",
    'supervisor/s.ts': "export type S = number;\nimport { run } from '../cli/main.js';\n",
    'cli/main.ts': "export const run = 1;\nimport '../supervisor/s.js';\n",
  });
  assert.deepEqual(check(src, LAYERS), [
    'src/store/store.ts: imports src/supervisor/s.ts, but store (layer 2) may not import supervisor (layer 3)',
    'src/supervisor/s.ts: imports src/cli/main.ts, but supervisor (layer 3) may not import cli (layer 4)',
    'cycle: src/cli/main.ts -> src/supervisor/s.ts -> src/cli/main.ts',
  ]);
});

test('a type-only cycle inside one layer, a dynamic import and JSDoc type imports are seen', () => {
  const src = tree('cycle', {
    'store/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
    'store/b.ts': "export type B = number;\nexport const load = () => import('./c.js');\n",
    'store/c.ts': "export type { A } from './a.js';\n",
    'protocol/view.js': "/** @typedef {import('../store/a.js').A} A */\nexport {};\n",
    'protocol/fold.js': "/** @import { B } from '../store/b.js' */\nexport {};\n",
  });
  assert.deepEqual(check(src, LAYERS), [
    'src/protocol/fold.js: imports src/store/b.ts, but protocol (layer 1) may not import store (layer 2)',
    'src/protocol/view.js: imports src/store/a.ts, but protocol (layer 1) may not import store (layer 2)',
    'cycle: src/store/a.ts -> src/store/b.ts -> src/store/c.ts -> src/store/a.ts',
  ]);
});

test('a folder in no layer and an import of a missing file fail', () => {
  const src = tree('unplaced', {
    'settings/types.ts': "import type { X } from '../store/missing.js';\n",
  });
  assert.deepEqual(check(src, LAYERS), [
    "src/settings/types.ts: imports '../store/missing.js', which is no file",
    'src/settings: in no layer (add it to LAYERS in scripts/check-layers.mjs)',
  ]);
});
test("Warden's own src/ keeps the layer order and has no cycles", () => {
  const src = fileURLToPath(new URL('../../src', import.meta.url));
  assert.deepEqual(check(src), []);
});
