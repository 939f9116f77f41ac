// Fuzzing the CLI's stdout as query() reads it: random bytes, random JSON lines, frames shaped like the
// protocol with random contents, and real recorded sessions mutated. Each stdout goes through the whole
// reading path of query() (an in-process process, scripted-process.ts); the query must end within a bound,
// by itself or with a WardenError, and every warning must be a WardenError too. Bounded for `npm test`;
// WARDEN_FUZZ_RUNS raises the number of inputs per kind.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import fc from 'fast-check';

import { WardenError } from '../../src/protocol/errors.js';
import { query } from '../../src/session/query.js';
import { mutatedLines } from './mutate-lines.js';
import { ScriptedProcess, type Script } from './scripted-process.js';

const RUNS = Number(process.env.WARDEN_FUZZ_RUNS ?? 150);
const SECONDS = Number(process.env.WARDEN_FUZZ_SECONDS ?? (process.env.WARDEN_FUZZ_RUNS ? 3600 : 5));
const HANG_MS = 10_000;
const TRANSCRIPTS = ['Q1', 'Q2-noperm-pta', 'S1', 'S2', 'S3-close', 'S4'];

interface Recorded {
  readonly initialize: Record<string, unknown>;
  readonly lines: string[];
}

/** The CLI's side of a recorded session: its initialize answer, and every other line it wrote. */
function recorded(name: string): Recorded {
  const entries = readFileSync(new URL(`../fixtures/transcripts/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { dir: string; msg?: Record<string, unknown> });
  const out = entries.flatMap((entry) => (entry.dir === 'out' && entry.msg !== undefined ? [entry.msg] : []));
  const answer = out.findIndex((msg) => msg.type === 'control_response');
  const body = (out[answer]?.response as { response?: Record<string, unknown> } | undefined)?.response ?? {};
  return { initialize: body, lines: out.filter((_, i) => i !== answer).map((msg) => JSON.stringify(msg)) };
}

type Outcome = { kind: 'ended'; messages: number } | { kind: 'failed'; error: unknown } | { kind: 'hung' };

/** Runs one query over the scripted stdout; what it ended with, and the warnings it raised. */
async function feed(script: Script): Promise<{ outcome: Outcome; warnings: unknown[] }> {
  const warnings: unknown[] = [];
  const q = query({
    prompt: 'hello',
    options: {
      spawnClaudeCodeProcess: () => new ScriptedProcess(script),
      canUseTool: (_tool, input) => Promise.resolve({ behavior: 'allow', updatedInput: input }),
      onWarning: (warning) => warnings.push(warning),
    },
  });
  const initialization = q.initializationResult().then(
    () => undefined,
    (error: unknown) => error,
  );
  const consume = (async (): Promise<Outcome> => {
    let messages = 0;
    try {
      for await (const _ of q) messages += 1;
      return { kind: 'ended', messages };
    } catch (error) {
      return { kind: 'failed', error };
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<Outcome>(
    (resolve) => (timer = setTimeout(() => resolve({ kind: 'hung' }), HANG_MS)),
  );
  const outcome = await Promise.race([consume, hung]);
  clearTimeout(timer);
  q.close();
  const initError = await initialization;
  if (initError !== undefined) warnings.push(initError);
  return { outcome, warnings };
}

function assertTyped({ outcome, warnings }: { outcome: Outcome; warnings: unknown[] }): void {
  assert.notEqual(outcome.kind, 'hung', `query() ended within ${HANG_MS} ms`);
  if (outcome.kind === 'failed')
    assert.ok(
      outcome.error instanceof WardenError,
      `query() failed with a WardenError: ${String(outcome.error)}`,
    );
  for (const warning of warnings)
    assert.ok(warning instanceof WardenError, `every warning is a WardenError: ${String(warning)}`);
}

const exitCode = fc.constantFrom<number | null>(0, 0, 1, null);
const lines = (values: readonly unknown[]): Uint8Array =>
  Buffer.from(values.map((v) => `${JSON.stringify(v)}\n`).join(''));

/** Objects that look like what the CLI writes, with random members: they reach past the first type check. */
const protocolish = fc
  .record({
    type: fc.constantFrom(
      'assistant',
      'user',
      'system',
      'result',
      'stream_event',
      'keep_alive',
      'control_request',
      'control_response',
      'control_cancel_request',
      'tool_progress',
    ),
    subtype: fc.option(
      fc.constantFrom(
        'init',
        'success',
        'error',
        'can_use_tool',
        'task_started',
        'task_notification',
        'error_during_execution',
      ),
    ),
    request_id: fc.option(fc.oneof(fc.string(), fc.nat())),
    session_id: fc.option(fc.string()),
    uuid: fc.option(fc.uuid()),
    request: fc.option(
      fc.dictionary(
        fc.constantFrom('subtype', 'tool_name', 'input', 'request_id', 'tool_use_id'),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    ),
    response: fc.option(
      fc.dictionary(
        fc.constantFrom('subtype', 'request_id', 'response', 'error'),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    ),
    message: fc.option(fc.jsonValue({ maxDepth: 3 })),
    is_error: fc.option(fc.jsonValue({ maxDepth: 0 })),
  })
  .map((frame) => Object.fromEntries(Object.entries(frame).filter(([, value]) => value !== null)));

const transcripts = TRANSCRIPTS.map(recorded);

const kinds: { name: string; scripts: fc.Arbitrary<Script> }[] = [
  {
    name: 'random bytes',
    scripts: fc.record({
      stdout: fc.uint8Array({ maxLength: 4096 }),
      initialize: fc.option(fc.constant({}), { freq: 3 }).map((v) => v ?? undefined),
      exitCode,
    }),
  },
  {
    name: 'random JSON lines',
    scripts: fc.record({
      stdout: fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 30 }).map(lines),
      initialize: fc
        .option(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), { freq: 3 })
        .map((v) => v ?? undefined),
      exitCode,
    }),
  },
  {
    name: 'protocol-shaped frames',
    scripts: fc.record({
      stdout: fc.array(protocolish, { maxLength: 30 }).map(lines),
      initialize: fc.constant({}),
      exitCode,
    }),
  },
  {
    name: 'mutated recorded sessions',
    scripts: fc.constantFrom(...transcripts).chain((session) =>
      fc.record({
        stdout: mutatedLines(session.lines).map((mutated) =>
          Buffer.from(mutated.map((line) => `${line}\n`).join('')),
        ),
        initialize: fc.constant(session.initialize),
        exitCode,
      }),
    ),
  },
];

for (const { name, scripts } of kinds) {
  test(`CLI stdout fuzz: ${name} end query() with a WardenError or cleanly, never a crash or a hang`, async () => {
    const started = Date.now();
    const tally = { inputs: 0, ended: 0, failed: 0 };
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(scripts, async (script) => {
        tally.inputs += 1;
        const fed = await feed(script);
        assertTyped(fed);
        for (const warning of fed.warnings) {
          const key = `warned ${(warning as WardenError).code}`;
          codes.set(key, (codes.get(key) ?? 0) + 1);
        }
        if (fed.outcome.kind === 'failed') {
          tally.failed += 1;
          const code = (fed.outcome.error as WardenError).code;
          codes.set(code, (codes.get(code) ?? 0) + 1);
        } else tally.ended += 1;
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: SECONDS * 1000 },
    );
    const errors = [...codes].map(([code, n]) => `${code}=${n}`).join(' ');
    console.log(
      `[reliability] fuzz cli-stdout ${name}: ${tally.inputs} inputs, ${tally.ended} ended, ${tally.failed} failed typed; errors and warnings by code: ${errors}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
}
