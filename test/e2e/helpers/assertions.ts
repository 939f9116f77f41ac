// Assertions shared by the e2e tests: how a CLI session must end.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import type { Scratch } from '../../../src/testing/index.js';
import type { CliProcess } from './cli-process.js';

/** Ends input, expects the given exit code, and checks that neither the process nor its files remain. */
export async function assertCleanEnd(cli: CliProcess, scratch: Scratch, expectedCode = 0): Promise<void> {
  cli.endInput();
  const exit = await cli.exited;
  assert.deepEqual(exit, { code: expectedCode, signal: null }, `CLI exit; stderr: ${cli.stderr()}`);
  assert.throws(() => process.kill(cli.pid, 0), { code: 'ESRCH' });
  scratch.cleanup();
  assert.equal(existsSync(scratch.dir), false, 'the scratch HOME, TMPDIR and cwd are removed');
}

/** The text of an assistant frame's content blocks. */
export function assistantText(frame: { message?: { content?: unknown } }): string {
  const content = frame.message?.content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block: { type?: string }) => block.type === 'text')
    .map((block: { text?: string }) => block.text ?? '')
    .join('');
}
