// The `*Output` types of `./sdk-tools` are the official declarations; this checks them against what the
// real CLI returned. Every result in test/fixtures/tool-outputs.json (recorded by
// scripts/capture-tool-outputs.ts) is written as a literal of its tool's output type — so a missing field, a
// wrong type and a field the type does not name all fail — and compiled.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { OUTPUT_PATH, outputName } from '../../scripts/generate-sdk-tools.js';
import { compile } from './compile.js';

interface Recorded {
  claudeCodeVersion: string;
  tools: Record<string, unknown[]>;
}

const recorded = JSON.parse(
  readFileSync(new URL('../fixtures/tool-outputs.json', import.meta.url), 'utf8'),
) as Recorded;

describe('the results the CLI returned from its tools', { timeout: 120_000 }, () => {
  it('are values of the output types of ./sdk-tools', async () => {
    const lines = [`import type * as Tools from ${JSON.stringify(OUTPUT_PATH.replace(/\.ts$/, '.js'))};`];
    for (const [tool, results] of Object.entries(recorded.tools)) {
      const name = outputName(tool);
      assert.ok(name !== undefined, `${tool} has no official output type`);
      results.forEach((result, index) =>
        lines.push(`export const ${tool}_${index}: Tools.${name} = ${JSON.stringify(result)};`),
      );
    }
    assert.ok(lines.length > 20, `only ${lines.length - 1} results recorded`);
    const dir = mkdtempSync(join(tmpdir(), 'warden-outputs-'));
    try {
      const file = join(dir, 'outputs.ts');
      writeFileSync(file, `${lines.join('\n')}\n`);
      assert.equal(await compile(file), '', `recorded from Claude Code ${recorded.claudeCodeVersion}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
