// query() against the real CLI: interrupt while a permission request is pending, the CLI killed with
// SIGKILL mid-turn, multi-turn streaming input, a spawn failure, and close() while a turn runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ProcessExitError, SpawnError, query, type SDKMessage } from '../../src/index.js';
import { scenario } from '../../src/testing/index.js';
import {
  assertNoProcessLeft,
  collect,
  heldInput,
  processesUsingHome,
  signal,
  startSdkSession,
} from './helpers/sdk-session.js';

const BASH = { command: 'touch interrupted.txt', description: 'Create a file' };

describe('query() lifecycle against the real CLI', { timeout: 120_000 }, () => {
  it('interrupt() while a permission request is pending aborts the callback; the session goes on', async (t) => {
    const script = scenario()
      .on('ask')
      .callTool('Bash', BASH)
      // The CLI sends the interrupted call's error result and the next prompt in one user message.
      .thenAnswer((ctx) => (ctx.lastUserText.includes('[[next]]') ? 'Second turn answered.' : 'unexpected'))
      .build();
    const session = await startSdkSession(t, script);
    const held = heldInput();
    const asked = signal();
    let callbackSignal: AbortSignal | undefined;
    const q = query({
      prompt: held.input,
      options: {
        ...session.options,
        canUseTool: (_tool, _input, { signal: abort }) => {
          callbackSignal = abort;
          asked.fire();
          // A person who never answers: only the abort ends the wait.
          return new Promise((resolve) =>
            abort.addEventListener('abort', () => resolve({ behavior: 'deny', message: 'aborted' }), {
              once: true,
            }),
          );
        },
      },
    });
    held.send('[[ask]] make a file');
    const results: SDKMessage[] = [];
    const done = collect(q, (message) => {
      if (message.type !== 'result') return;
      results.push(message);
      if (results.length === 1) held.send('[[next]] carry on');
      if (results.length === 2) held.end();
    });
    await asked.promise;
    await q.interrupt();
    assert.equal(callbackSignal?.aborted, true, "the callback's signal aborts");
    await done;
    assert.equal((results[0] as Record<string, unknown>).subtype, 'error_during_execution');
    assert.equal((results[1] as Record<string, unknown>).result, 'Second turn answered.');
    assertNoProcessLeft(session);
  });

  it('SIGKILL of the CLI mid-turn: a ProcessExitError, quickly, after every message; nothing left', async (t) => {
    const replying = signal();
    const script = scenario()
      .on('slow')
      .reply(() => {
        replying.fire();
        return { hang: true, content: [{ type: 'text', text: 'thinking' }] };
      })
      .build();
    const session = await startSdkSession(t, script);
    const messages: SDKMessage[] = [];
    const done = collect(query({ prompt: '[[slow]] take your time', options: session.options }), (m) =>
      messages.push(m),
    );
    await replying.promise;
    const [pid] = processesUsingHome(session.scratch.home);
    assert.ok(pid !== undefined, 'the CLI is running');
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await assert.rejects(done, (error: unknown) => {
      assert.ok(error instanceof ProcessExitError);
      assert.equal(error.code, 'PROCESS_EXITED');
      assert.equal(error.signal, 'SIGKILL');
      assert.equal(error.message.split('\n')[0], 'Claude Code process terminated by signal SIGKILL');
      return true;
    });
    assert.ok(Date.now() - killedAt < 5000, 'death is noticed promptly');
    assert.equal(messages[0]?.type, 'system', 'messages before the kill were delivered');
    assertNoProcessLeft(session);
  });

  it('multi-turn streaming input: each message gets its turn, and the query ends when input ends', async (t) => {
    const script = scenario().on('one').thenAnswer('First.').on('two').thenAnswer('Second.').build();
    const session = await startSdkSession(t, script);
    const held = heldInput();
    held.send('[[one]] hello');
    const answers: string[] = [];
    await collect(query({ prompt: held.input, options: session.options }), (message) => {
      if (message.type !== 'result') return;
      answers.push(String((message as Record<string, unknown>).result));
      if (answers.length === 1) held.send('[[two]] again');
      else held.end();
    });
    assert.deepEqual(answers, ['First.', 'Second.']);
    assertNoProcessLeft(session);
  });

  it('close() while a turn runs ends iteration at once and stops the CLI', async (t) => {
    const replying = signal();
    const script = scenario()
      .on('slow')
      .reply(() => {
        replying.fire();
        return { hang: true };
      })
      .build();
    const session = await startSdkSession(t, script);
    const q = query({ prompt: '[[slow]] wait', options: session.options });
    const done = collect(q);
    await replying.promise;
    q.close();
    await done;
    await assert.rejects(q.interrupt(), { code: 'CONTROL_CHANNEL_CLOSED' });
    // Iteration ended at once; `closed` settles when the CLI is gone.
    await q.closed;
    assertNoProcessLeft(session);
  });

  it('a missing executable is a SpawnError within a second', async () => {
    const startedAt = Date.now();
    await assert.rejects(
      collect(
        query({
          prompt: 'hi',
          options: { pathToClaudeCodeExecutable: '/nonexistent/claude', env: { PATH: '/usr/bin' } },
        }),
      ),
      (error: unknown) => {
        assert.ok(error instanceof SpawnError);
        assert.equal(error.code, 'SPAWN_FAILED');
        assert.equal(error.errno, 'ENOENT');
        return true;
      },
    );
    assert.ok(Date.now() - startedAt < 1000);
  });
});
