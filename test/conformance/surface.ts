// The public surface of a package, read from its declarations with the TypeScript compiler API: the keys
// of `Options`, the members of `Query` and the exports of every subpath in package.json's `exports`.
// Used to compare Warden with the official SDK (see conformance.test.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import ts from 'typescript';

export interface Surface {
  /** Keys of the `Options` type exported from the package root. */
  readonly options: ReadonlySet<string>;
  /** Public members of the `Query` type (or class) exported from the package root. */
  readonly query: ReadonlySet<string>;
  /** Subpath ('.', './core', …) → exported name → whether it has a run-time value (not only a type). */
  readonly exports: ReadonlyMap<string, ReadonlyMap<string, boolean>>;
}

/** Subpath → declaration file, from a package.json `exports` map (`types` of each entry). */
export function declarationEntries(
  packageDir: string,
  mapTypes = (path: string) => path,
): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    exports?: Record<string, string | { types?: string }>;
  };
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const types = typeof target === 'string' ? undefined : target.types;
    if (types !== undefined) entries.set(subpath, join(packageDir, mapTypes(types)));
  }
  return entries;
}

/** Reads the surfaces of several packages in one program (the declarations they share are parsed once). */
export function readSurfaces(packages: readonly ReadonlyMap<string, string>[]): Surface[] {
  const program = ts.createProgram(
    packages.flatMap((entries) => [...entries.values()]),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  return packages.map((entries) => surfaceOf(program, checker, entries));
}

function surfaceOf(
  program: ts.Program,
  checker: ts.TypeChecker,
  entries: ReadonlyMap<string, string>,
): Surface {
  const exports = new Map<string, Map<string, boolean>>();
  for (const [subpath, file] of entries) {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`cannot read the declarations of ${subpath} (${file})`);
    const names = new Map<string, boolean>();
    for (const symbol of checker.getExportsOfModule(module)) {
      names.set(symbol.name, (resolved(checker, symbol).flags & ts.SymbolFlags.Value) !== 0);
    }
    exports.set(subpath, names);
  }
  const root = entries.get('.');
  if (root === undefined) throw new Error('the package has no root export');
  const rootExports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(root)!)!);
  return {
    options: publicMembers(checker, rootExports, 'Options'),
    query: publicMembers(checker, rootExports, 'Query'),
    exports,
  };
}

function resolved(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Property names of an exported type or class's instance type, without private/protected/symbol-keyed ones. */
function publicMembers(checker: ts.TypeChecker, rootExports: ts.Symbol[], name: string): Set<string> {
  const exported = rootExports.find((symbol) => symbol.name === name);
  if (exported === undefined) return new Set();
  const type = checker.getDeclaredTypeOfSymbol(resolved(checker, exported));
  const members = new Set<string>();
  for (const property of checker.getPropertiesOfType(type)) {
    if (property.name.startsWith('__@') || property.name.startsWith('#')) continue;
    const hidden = property.declarations?.some(
      (declaration) =>
        ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected),
    );
    if (hidden !== true) members.add(property.name);
  }
  return members;
}

/** Warden's own entries: package.json points at dist/*.d.ts, built from src/*.ts. */
export function wardenEntries(repoDir: string): Map<string, string> {
  return declarationEntries(repoDir, (types) =>
    types.replace(/^\.\/dist\//, './src/').replace(/\.d\.ts$/, '.ts'),
  );
}

export function officialEntries(repoDir: string): Map<string, string> {
  return declarationEntries(join(repoDir, 'node_modules', '@anthropic-ai', 'claude-agent-sdk'));
}

export const repoDir = join(dirname(new URL(import.meta.url).pathname), '..', '..');
