// The drop-in promise at the type level: test/types/app.ts (an application written against the official
// SDK's types), every-export.ts (every export of the root Warden provides), content-blocks.ts (Messages
// API blocks and deltas as ACP agents use them) and tools.ts (the `sdk-tools` input types) typecheck with
// their imports resolved to the official package and, unchanged, resolved to Warden's sources. The file
// lists prove which module each run actually compiled against. The twin suite's scenarios — clients
// written against the official API that run on both SDKs — typecheck against Warden's types as well.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';

import { documentedGaps } from '../conformance/documented-gaps.js';
import { officialEntries, readSurfaces, repoDir } from '../conformance/surface.js';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function typecheck(project: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsc, '--noEmit', '--listFiles', '-p', project],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Compiler diagnostics only, without the file list. */
function diagnostics(output: string): string {
  return output
    .split('\n')
    .filter((line) => line.includes('error TS'))
    .join('\n');
}

describe('an application typed against the official SDK', { timeout: 120_000 }, () => {
  it('typechecks against the official SDK and, unchanged, against Warden', async () => {
    const [official, warden] = await Promise.all([
      typecheck('test/types/tsconfig.json'),
      typecheck('test/types/tsconfig.warden.json'),
    ]);
    assert.equal(diagnostics(official.output), '', 'valid official code');
    assert.equal(official.code, 0);
    assert.match(official.output, /@anthropic-ai\/claude-agent-sdk\/sdk\.d\.ts/);

    assert.equal(diagnostics(warden.output), '', 'compiles against Warden');
    assert.equal(warden.code, 0);
    assert.match(warden.output, /\/src\/index\.ts/);
    assert.match(warden.output, /\/src\/sdk-tools\.ts/);
    assert.doesNotMatch(warden.output, /@anthropic-ai\/claude-agent-sdk\/sdk(-tools)?\.d\.ts/);
    for (const file of ['app.ts', 'every-export.ts', 'content-blocks.ts', 'tools.ts']) {
      assert.match(official.output, new RegExp(`test/types/${file.replace('.', '\\.')}`), file);
      assert.match(warden.output, new RegExp(`test/types/${file.replace('.', '\\.')}`), file);
    }
  });

  it('the twin scenarios, clients run against both SDKs, typecheck against Warden unchanged', async () => {
    // The same files run on the official SDK and on Warden (test/e2e/twin), whose outputs are compared
    // message by message; the main tsconfig compiles them against the official package.
    const warden = await typecheck('test/types/tsconfig.twin-warden.json');
    assert.equal(diagnostics(warden.output), '', 'compiles against Warden');
    assert.equal(warden.code, 0);
    assert.match(warden.output, /\/src\/index\.ts/);
    assert.doesNotMatch(warden.output, /@anthropic-ai\/claude-agent-sdk\/sdk\.d\.ts/);
    for (const file of ['conversation', 'permissions', 'methods', 'controls', 'options', 'session-lifecycle'])
      assert.match(warden.output, new RegExp(`test/e2e/twin/scenarios/${file}\\.ts`), file);
  });

  it('every-export.ts names every export of the official root that the docs do not list as `no`', () => {
    const [official] = readSurfaces([officialEntries(repoDir)]);
    const gaps = new Set(documentedGaps(join(repoDir, 'docs', 'compatibility.md')).map((gap) => gap.name));
    const text = readFileSync(join(repoDir, 'test', 'types', 'every-export.ts'), 'utf8');
    const named = new Set([...text.matchAll(/SDK\.(\w+)/g)].map((match) => match[1]!));
    const missing = [...official!.exports.get('.')!.keys()].filter(
      (name) => !gaps.has(name) && !named.has(name),
    );
    assert.deepEqual(missing, [], 'add these to test/types/every-export.ts');
  });
});
