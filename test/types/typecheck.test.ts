// The drop-in promise at the type level: test/types/app.ts, an application written against the official
// SDK's types, typechecks with its import resolved to the official package and, unchanged, resolved to
// Warden's src/index.ts. The file lists prove which module each run actually compiled against.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';

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
    assert.doesNotMatch(warden.output, /@anthropic-ai\/claude-agent-sdk\/sdk\.d\.ts/);
  });
});
