// What is not a problem is not reported: with the real CLI, replies it echoes back under
// --replay-user-messages and a canUseTool that rejects because the interrupt withdrew its request reach
// onWarning as nothing, and the query ends normally.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ErrorResultError, query, type CanUseTool } from '../../src/index.js';
import { scenario } from '../../src/testing/index.js';
import { assertNoProcessLeft, collect, startSdkSession } from './helpers/sdk-session.js';

function bashScenario() {
  return scenario()
    .on('perm')
    .callTool('Bash', { command: 'touch made-by-bash.txt && echo created', description: 'Create a file' })
    .thenAnswer((ctx) => `tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`)
    .build();
}

describe('query() warns about nothing that is not a problem', { timeout: 120_000 }, () => {
  it('--replay-user-messages: our permission reply echoed back is not an unknown response', async (t) => {
    const session = await startSdkSession(t, bashScenario());
    let asked = 0;
    const messages = await collect(
      query({
        prompt: '[[perm]] create a file',
        options: {
          ...session.options,
          extraArgs: { 'replay-user-messages': null },
          canUseTool: (_name, input) => {
            asked += 1;
            return Promise.resolve({ behavior: 'allow', updatedInput: input });
          },
        },
      }),
    );
    assert.equal(asked, 1);
    const result = messages.findLast((m) => m.type === 'result');
    assert.equal((result as { result?: string } | undefined)?.result, 'tool said: created');
    assert.deepEqual(
      session.warnings.map((w) => `${w.code}: ${w.message}`),
      [],
    );
    assertNoProcessLeft(session);
  });

  it('a canUseTool that rejects when the interrupt withdraws its request is not a failed callback', async (t) => {
    const session = await startSdkSession(t, bashScenario());
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => (asked = resolve));
    const canUseTool: CanUseTool = (_name, _input, { signal }) => {
      asked();
      // A prompt that is dismissed when the request goes away: it rejects with the abort's reason.
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      );
    };
    const q = query({ prompt: '[[perm]] create a file', options: { ...session.options, canUseTool } });
    // Interrupting a one-prompt query ends it with an error result on both SDKs; that is not the point here.
    const done = collect(q).catch((error: unknown) => error);
    await askedPromise;
    await q.interrupt();
    const outcome = await done;
    assert.ok(outcome instanceof ErrorResultError || Array.isArray(outcome), String(outcome));
    assert.deepEqual(
      session.warnings.map((w) => `${w.code}: ${w.message}`),
      [],
    );
    assertNoProcessLeft(session);
  });
});
