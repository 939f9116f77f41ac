// Writes and compiles a check that every type both the official package and Warden export (from the root
// and from `./sdk-tools`) is assignable both ways: a value typed with Warden's type can be handed to code
// typed with the official one, and the other way round. Generic types are left out (they need arguments).
// Used by mutual.test.ts; the exceptions, with their reasons, are in mutual-exceptions.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import ts from 'typescript';

import { officialEntries, repoDir, wardenEntries } from '../conformance/surface.js';
import { compile } from './compile.js';

export type Direction = 'warden-to-official' | 'official-to-warden';
/** `<subpath> <name>` → the direction that fails. */
export type Mismatches = Map<string, Direction>;

const SUBPATHS = ['.', './sdk-tools'] as const;

/** Exported type names (without type parameters that lack defaults) of each subpath, for both packages. */
function sharedTypes(): { subpath: string; name: string }[] {
  const official = officialEntries(repoDir);
  const warden = wardenEntries(repoDir);
  const files = SUBPATHS.flatMap((s) => [official.get(s)!, warden.get(s)!]);
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const typesOf = (file: string): Map<string, boolean> => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const types = new Map<string, boolean>();
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!(target.flags & ts.SymbolFlags.Type)) continue;
      const declaration = target.declarations?.[0];
      const generic =
        declaration !== undefined &&
        (ts.isInterfaceDeclaration(declaration) ||
          ts.isTypeAliasDeclaration(declaration) ||
          ts.isClassDeclaration(declaration)) &&
        (declaration.typeParameters ?? []).some((parameter) => parameter.default === undefined);
      types.set(symbol.name, generic);
    }
    return types;
  };
  const shared: { subpath: string; name: string }[] = [];
  for (const subpath of SUBPATHS) {
    const ours = typesOf(warden.get(subpath)!);
    for (const [name, generic] of typesOf(official.get(subpath)!))
      if (ours.has(name) && !generic && ours.get(name) === false) shared.push({ subpath, name });
  }
  return shared;
}

/** Compiles the check; resolves with every pair that is not assignable, and the number of pairs checked. */
export async function mutualMismatches(): Promise<{ checked: number; mismatches: Mismatches }> {
  const shared = sharedTypes();
  const official = officialEntries(repoDir);
  const warden = wardenEntries(repoDir);
  const alias = (subpath: string) => (subpath === '.' ? 'Root' : 'Tools');
  const jsPath = (file: string) => JSON.stringify(file.replace(/(\.d)?\.ts$/, '.js'));
  const lines = [
    ...SUBPATHS.map((s) => `import type * as O${alias(s)} from ${jsPath(official.get(s)!)};`),
    ...SUBPATHS.map((s) => `import type * as W${alias(s)} from ${jsPath(warden.get(s)!)};`),
    "type Mutual<W, O> = [W] extends [O] ? ([O] extends [W] ? true : 'official-to-warden') : 'warden-to-official';",
    ...shared.map(
      ({ subpath, name }) =>
        `export const check${alias(subpath)}_${name}: Mutual<W${alias(subpath)}.${name}, O${alias(subpath)}.${name}> = true;`,
    ),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'warden-mutual-'));
  try {
    const file = join(dir, 'mutual.ts');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const output = await compile(file);
    const mismatches: Mismatches = new Map();
    // Every diagnostic must be one of the checks failing: anything else (an import that does not resolve, a
    // declaration that does not compile) would otherwise pass as "no mismatch".
    const stray = output
      .split('\n')
      .filter((l) => l.includes('error TS') && !/mutual\.ts\(\d+,\d+\): error TS2322/.test(l));
    if (stray.length > 0) throw new Error(`the check did not compile:\n${stray.join('\n')}`);
    for (const match of output.matchAll(/mutual\.ts\((\d+),\d+\): error TS\d+: (.*)/g)) {
      const line = lines[Number(match[1]) - 1] ?? '';
      const check = /check(Root|Tools)_(\w+)/.exec(line);
      const direction = /"(warden-to-official|official-to-warden)"/.exec(match[2]!)?.[1] as
        Direction | undefined;
      if (check === null || direction === undefined) throw new Error(`unexpected diagnostic: ${match[0]}`);
      mismatches.set(`${check[1] === 'Root' ? '.' : './sdk-tools'} ${check[2]}`, direction);
    }
    return { checked: shared.length, mismatches };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
