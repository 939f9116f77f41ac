// query() against the real CLI: canUseTool allows, denies (the model sees the message), and denies with
// interrupt. Each test checks the callback's arguments, the stream, and that nothing is left running.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ErrorResultError, query, type CanUseTool, type SDKMessage } from '../../src/index.js';
import { scenario } from '../../src/testing/index.js';
import { assertNoProcessLeft, collect, startSdkSession } from './helpers/sdk-session.js';

const COMMAND = 'touch made-by-bash.txt && echo created';

function bashScenario() {
  return scenario()
    .on('perm')
    .callTool('Bash', { command: COMMAND, description: 'Create a file' })
    .thenAnswer((ctx) => `tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`)
    .build();
}

describe('query() permissions against the real CLI', { timeout: 120_000 }, () => {
  it('allow: the tool runs and the model gets its result', async (t) => {
    const session = await startSdkSession(t, bashScenario());
    const calls: Parameters<CanUseTool>[] = [];
    const messages = await collect(
      query({
        prompt: '[[perm]] create a file',
        options: {
          ...session.options,
          canUseTool: (...args) => {
            calls.push(args);
            return Promise.resolve({ behavior: 'allow', updatedInput: args[1] });
          },
        },
      }),
    );
    assert.equal(calls.length, 1);
    const [toolName, input, context] = calls[0]!;
    assert.equal(toolName, 'Bash');
    assert.deepEqual(input, { command: COMMAND, description: 'Create a file' });
    assert.match(context.toolUseID, /^toolu_/);
    assert.equal(context.agentID, undefined);
    assert.equal(typeof context.requestId, 'string');
    assert.ok(context.signal instanceof AbortSignal);

    const result = messages.findLast((m) => m.type === 'result');
    assert.equal(result?.subtype, 'success');
    assert.equal((result as { result?: string }).result, 'tool said: created');
    assert.equal(existsSync(join(session.scratch.cwd, 'made-by-bash.txt')), true);
    assert.equal(messages[0]?.type, 'system');
    assert.deepEqual(session.warnings, []);
    assertNoProcessLeft(session);
  });

  it('deny: the tool does not run and the model receives the message', async (t) => {
    const session = await startSdkSession(t, bashScenario());
    const messages = await collect(
      query({
        prompt: '[[perm]] create a file',
        options: {
          ...session.options,
          canUseTool: () => Promise.resolve({ behavior: 'deny', message: 'Not in this repository, please.' }),
        },
      }),
    );
    assert.equal(existsSync(join(session.scratch.cwd, 'made-by-bash.txt')), false);
    const followUp = session.mock.requests.find((r) => r.kind === 'main' && r.rounds === 1);
    assert.equal(followUp?.toolResults?.[0]?.isError, true);
    assert.match(followUp?.toolResults?.[0]?.text ?? '', /Not in this repository, please\./);
    const result = messages.findLast((m) => m.type === 'result') as Record<string, unknown> | undefined;
    assert.equal(result?.subtype, 'success');
    assert.equal((result?.permission_denials as unknown[]).length, 1);
    assertNoProcessLeft(session);
  });

  it('deny with interrupt: the turn stops without another model call', async (t) => {
    const session = await startSdkSession(t, bashScenario());
    const messages: SDKMessage[] = [];
    // The CLI ends an interrupted turn with an error result and then exits 1, so the query throws the
    // CLI's own error text (as the official SDK does), after every message was delivered.
    await assert.rejects(
      collect(
        query({
          prompt: '[[perm]] create a file',
          options: {
            ...session.options,
            canUseTool: () =>
              Promise.resolve({ behavior: 'deny', message: 'Stop right there.', interrupt: true }),
          },
        }),
        (message) => messages.push(message),
      ),
      (error: unknown) => {
        assert.ok(error instanceof ErrorResultError);
        assert.equal(error.code, 'ERROR_RESULT');
        assert.equal(error.exitCode, 1);
        assert.match(error.message, /^Claude Code returned an error result: /);
        return true;
      },
    );
    assert.equal(existsSync(join(session.scratch.cwd, 'made-by-bash.txt')), false);
    assert.equal(
      session.mock.requests.some((r) => r.kind === 'main' && r.rounds === 1),
      false,
      'the model is not asked again after an interrupting deny',
    );
    const result = messages.findLast((m) => m.type === 'result') as Record<string, unknown> | undefined;
    assert.equal(result?.is_error, true, 'the error result is delivered before the error is thrown');
    assertNoProcessLeft(session);
  });
});
