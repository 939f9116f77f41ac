// Compiles one TypeScript file with the repository's own strictness, outside any tsconfig, so a check sees
// what an application compiled like Warden sees. Resolves with tsc's output (empty when it compiles).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { repoDir } from '../conformance/surface.js';

export function compile(file: string): Promise<string> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const flags = [
    '--ignoreConfig',
    '--noEmit',
    '--strict',
    '--exactOptionalPropertyTypes',
    '--noUncheckedIndexedAccess',
    '--skipLibCheck',
    '--target',
    'es2022',
    '--lib',
    'es2023',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--types',
    'node',
    '--typeRoots',
    join(repoDir, 'node_modules', '@types'),
  ];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsc, ...flags, file],
      { maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
  });
}
