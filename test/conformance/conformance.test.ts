// Drop-in conformance with the installed official SDK, read from its declarations at run time: every key of
// its `Options`, every member of its `Query` and every export of every subpath in its package.json is
// either provided by Warden (read from Warden's sources the same way) or listed in docs/compatibility.md
// with status `no` and a reason. A new official release that adds one fails here, naming it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { documentedGaps, type Kind } from './documented-gaps.js';
import { officialEntries, readSurfaces, repoDir, wardenEntries } from './surface.js';

const DOC = join(repoDir, 'docs', 'compatibility.md');
const officialFiles = officialEntries(repoDir);
const wardenFiles = wardenEntries(repoDir);
const [official, warden] = readSurfaces([officialFiles, wardenFiles]) as [
  ReturnType<typeof readSurfaces>[number],
  ReturnType<typeof readSurfaces>[number],
];
const gaps = documentedGaps(DOC);
/**
 * A `no` row of single names covers them in every subpath that exports them: the root and `./core` (the
 * official root without its process-spawning extras; the same module in Warden) share the rows written
 * for the root. `./sdk-tools` admits none (see below).
 */

function documented(kind: Kind, name: string): boolean {
  return gaps.some((gap) => gap.kind === kind && gap.name === name);
}

/** Fails with just the list (no diff of arrays), so the output is what is left to do. */
function expectNone(what: string, missing: readonly string[]): void {
  if (missing.length === 0) return;
  assert.fail(
    `${missing.length} ${what} of the official SDK that Warden neither provides nor lists in ` +
      `docs/compatibility.md (a row with status \`no\` and a reason):\n  ${[...missing].sort().join('\n  ')}`,
  );
}

void test('the declarations were read (the check cannot pass on an empty surface)', () => {
  assert.ok(official.options.has('cwd') && official.options.size > 50, 'official Options keys');
  assert.ok(official.query.has('interrupt'), 'official Query members');
  assert.ok(official.exports.get('.')?.get('query') === true, "official '.' exports query as a value");
  assert.ok(warden.options.has('cwd') && warden.query.has('interrupt'), "Warden's Options and Query");
  assert.ok(warden.exports.get('.')?.get('query') === true, "Warden's '.' exports query as a value");
});

void test('every key of the official Options', () => {
  const missing = [...official.options].filter(
    (key) => !warden.options.has(key) && !documented('option', key),
  );
  expectNone('Options keys', missing);
});

void test('every method of the official Query', () => {
  const missing = [...official.query].filter(
    (name) => !warden.query.has(name) && !documented('method', name),
  );
  expectNone('Query members', missing);
});

for (const [subpath, names] of official.exports) {
  void test(`every export of the official '${subpath}'`, () => {
    const ours = warden.exports.get(subpath);
    const wholeSubpathDocumented = subpath !== '.' && documented('export', subpath);
    const missing: string[] = [];
    for (const [name, isValue] of names) {
      if (wholeSubpathDocumented || documented('export', name)) continue;
      const has = ours?.get(name);
      if (has === undefined) missing.push(name);
      else if (isValue && !has)
        missing.push(`${name} (Warden exports only a type; the official one is a value)`);
    }
    const where = ours === undefined ? ` ('${subpath}' is not a subpath of Warden's package.json)` : '';
    expectNone(`exports of '${subpath}'${where}`, missing);
  });
}

// No gap is allowed here: what the generator cannot make from the CLI's schemas it copies from the official
// declarations (scripts/generate-sdk-tools.ts), so every name is there whatever the docs say.
for (const subpath of ['./sdk-tools', './sdk-tools.js']) {
  void test(`every name of the official '${subpath}', with no documented gap`, () => {
    const names = [...(official.exports.get(subpath)?.keys() ?? [])];
    assert.ok(names.length > 80, `only ${names.length} names in the official '${subpath}'`);
    const ours = warden.exports.get(subpath);
    expectNone(
      `names of '${subpath}'`,
      names.filter((name) => ours?.has(name) !== true),
    );
  });
}

void test('no row says `no` for something Warden provides', () => {
  const stale = gaps.filter(({ kind, name }) => {
    if (kind === 'option') return warden.options.has(name);
    if (kind === 'method') return warden.query.has(name);
    if (name.startsWith('./')) return warden.exports.has(name);
    return [...warden.exports.values()].some((names) => names.has(name));
  });
  if (stale.length > 0) {
    const names = stale.map(({ kind, name }) => `${kind} ${name}`).join('\n  ');
    assert.fail(`docs/compatibility.md lists these as \`no\`, but Warden has them:\n  ${names}`);
  }
});
