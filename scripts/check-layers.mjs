#!/usr/bin/env node
// The layer check (`npm run check` runs it): every import in src/ — static, dynamic, re-export and type-only,
// and JSDoc `import('…')` types in .js files — may point only at its own layer or one below it, and no two
// files may import each other round a cycle. The order is the one docs/architecture.md describes; a folder
// of src/ that is in no layer fails too, so a new room is placed on purpose rather than by accident.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

/**
 * The layers, lowest first. A file may import files of its own layer and of any layer before it. Keys are
 * the folders of src/ (or a file directly in src/).
 */
export const LAYERS = [
  ['protocol', 'constants.ts', 'sdk-tools.ts'],
  ['transport'],
  ['control'],
  ['sessions'],
  ['session', 'index.ts'],
  ['agents'],
  ['store'],
  ['view'],
  ['policy'],
  ['supervisor'],
  ['server'],
  ['testing'],
  ['cli'],
];

const SOURCE = /\.(ts|mts|js|mjs)$/;
const JSDOC_IMPORT =
  /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|@import\s[^*]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The rank of the room a path of src/ (relative, with `/`) belongs to, or undefined for none. */
function rankOf(path, layers) {
  const room = path.split('/')[0];
  const rank = layers.findIndex((names) => names.includes(room));
  return rank === -1 ? undefined : rank;
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The relative specifiers a file imports, type-only and dynamic ones included. */
function specifiers(path, text) {
  const found = ts.preProcessFile(text, true, true).importedFiles.map((entry) => entry.fileName);
  if (/\.m?js$/.test(path)) for (const match of text.matchAll(JSDOC_IMPORT)) found.push(match[1] ?? match[2]);
  return found.filter((spec) => spec.startsWith('./') || spec.startsWith('../'));
}

/** The source file a relative specifier names (`./x.js` is written for `./x.ts`). */
function resolveSpecifier(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    join(base, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * Every import against the order, every import of a file that does not exist, every room in no layer, and
 * every cycle, as readable lines. Empty when the tree keeps the order.
 */
export function checkLayers(srcDir, layers = LAYERS) {
  const problems = [];
  const rel = (path) => relative(srcDir, path).split(sep).join('/');
  const files = sourceFiles(srcDir);
  const graph = new Map();
  const unplaced = new Set();
  for (const file of files) {
    const from = rel(file);
    const fromRank = rankOf(from, layers);
    if (fromRank === undefined) unplaced.add(from.split('/')[0]);
    const targets = [];
    for (const spec of specifiers(file, readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, spec);
      if (target === undefined) {
        problems.push(`src/${from}: imports '${spec}', which is no file`);
        continue;
      }
      const to = rel(target);
      if (to.startsWith('..')) {
        problems.push(`src/${from}: imports '${spec}', outside src/`);
        continue;
      }
      targets.push(to);
      const toRank = rankOf(to, layers);
      if (fromRank !== undefined && toRank !== undefined && toRank > fromRank) {
        const name = (rank) => layers[rank].join('|');
        problems.push(
          `src/${from}: imports src/${to}, but ${name(fromRank)} (layer ${fromRank + 1}) may not import ${name(toRank)} (layer ${toRank + 1})`,
        );
      }
    }
    graph.set(from, targets);
  }
  for (const room of [...unplaced].sort())
    problems.push(`src/${room}: in no layer (add it to LAYERS in scripts/check-layers.mjs)`);
  for (const cycle of cycles(graph))
    problems.push(`cycle: ${cycle.map((file) => `src/${file}`).join(' -> ')}`);
  return problems;
}

/** One cycle through each strongly connected group of files (Tarjan), each closed on its first file. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      const selfLoop = (graph.get(node) ?? []).includes(node);
      if (group.length > 1 || selfLoop) groups.push(new Set(group));
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.map((group) => pathWithin(graph, group));
}

/** A shortest way round inside one group, from its first file back to it. */
function pathWithin(graph, group) {
  const start = [...group].sort()[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!group.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const srcDir = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src'));
  const problems = checkLayers(srcDir);
  if (problems.length > 0) {
    console.error(`Layer check: ${problems.length} problem(s) in ${srcDir}:`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`Layer check: ${sourceFiles(srcDir).length} files of src/ keep the layer order, no cycles.`);
}
