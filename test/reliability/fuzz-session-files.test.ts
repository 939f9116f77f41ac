// Fuzzing the session transcript files the session functions read: a transcript shaped as the CLI writes
// it (a conversation with a tool call, a compaction, a title, a tag, a sidechain), mutated line by line, and
// random lines outright. listSessions, getSessionInfo and getSessionMessages must never throw on them, and
// what they report must be WardenErrors. Bounded for `npm test`; WARDEN_FUZZ_RUNS raises the count.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import fc from 'fast-check';

import { WardenError } from '../../src/protocol/errors.js';
import { getSessionInfo, getSessionMessages, listSessions, listSubagents } from '../../src/sessions/index.js';
import {
  assistant,
  createConfigDir,
  id,
  sessionId,
  system,
  user,
  PROJECT_CWD,
} from '../unit/sessions-fixtures.js';
import { mutatedLines } from './mutate-lines.js';

const RUNS = Number(process.env.WARDEN_FUZZ_RUNS ?? 300);
const SECONDS = Number(process.env.WARDEN_FUZZ_SECONDS ?? (process.env.WARDEN_FUZZ_RUNS ? 3600 : 6));
const SESSION = sessionId(7);

/** One session as the CLI writes it, one JSON line per entry. */
function baseTranscript(): string[] {
  const first = user('fix the build');
  const call = assistant('running the tests', id(first), {
    message: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }],
    },
  });
  const result = user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }], id(call), {
    toolUseResult: { stdout: 'ok', stderr: '' },
  });
  const answer = assistant('the build passes', id(result));
  const compact = system('compact_boundary', id(answer), {
    compactMetadata: { trigger: 'auto', preTokens: 1 },
  });
  const summary = user('summary of the conversation', id(compact), { isCompactSummary: true, isMeta: true });
  const side = assistant('from a subagent', id(summary), { isSidechain: true, agentId: 'a1' });
  const later = user('and now the docs', id(summary));
  const last = assistant('done', id(later));
  return [
    first,
    call,
    result,
    answer,
    compact,
    summary,
    side,
    later,
    last,
    { type: 'custom-title', customTitle: 'Build fix' },
    { type: 'tag', tag: 'ci' },
    { type: 'summary', summary: 'Fixed the build', leafUuid: id(last) },
  ].map((entry) => JSON.stringify({ sessionId: SESSION, ...entry }));
}

const inputs = fc.oneof(
  { arbitrary: mutatedLines(baseTranscript()), weight: 4 },
  { arbitrary: fc.array(fc.string({ unit: 'binary', maxLength: 120 }), { maxLength: 12 }), weight: 1 },
  {
    arbitrary: fc.array(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      { maxLength: 12 },
    ),
    weight: 1,
  },
);

test('session file fuzz: mutated and random transcript lines never make the session functions throw', async () => {
  const dir = createConfigDir();
  const restore = dir.activate();
  const path = join(dir.project(PROJECT_CWD), `${SESSION}.jsonl`);
  const started = Date.now();
  let files = 0;
  let warnings = 0;
  let found = 0;
  try {
    await fc.assert(
      fc.asyncProperty(inputs, fc.boolean(), async (lines, endsWithNewline) => {
        files += 1;
        writeFileSync(path, lines.join('\n') + (endsWithNewline ? '\n' : ''));
        const seen: unknown[] = [];
        const onWarning = (warning: unknown): void => void seen.push(warning);
        const listed = await listSessions({ onWarning });
        const info = await getSessionInfo(SESSION, { onWarning });
        const messages = await getSessionMessages(SESSION, { onWarning, includeSystemMessages: true });
        await listSubagents(SESSION, { onWarning });
        if (info !== undefined) found += 1;
        assert.ok(Array.isArray(listed) && Array.isArray(messages));
        for (const warning of seen)
          assert.ok(warning instanceof WardenError, `a WardenError: ${String(warning)}`);
        warnings += seen.length;
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: SECONDS * 1000 },
    );
  } finally {
    restore();
    dir.cleanup();
  }
  console.log(
    `[reliability] fuzz session files: ${files} transcripts, ${found} still readable as a session, ${warnings} typed warnings, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
