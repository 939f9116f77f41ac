// startup(): the CLI is spawned and initialized before the prompt is known; `.query(prompt)` then starts at
// once. Against the real CLI: a string and an iterable prompt, close() and asyncDispose without a prompt,
// one query per warm query, and the initialize timeout (with a CLI that never answers) and spawn failures.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { RequestTimeoutError, SpawnError, startup, type SDKMessage } from '../../src/index.js';
import { scenario } from '../../src/testing/index.js';
import {
  assertNoProcessLeft,
  collect,
  heldInput,
  processesUsingHome,
  startSdkSession,
} from './helpers/sdk-session.js';
import { waitForNoProcess } from './helpers/supervisor-session.js';

describe('startup(): a warm query', { timeout: 120_000 }, () => {
  it('initializes before the prompt; query(string) runs the turn and the query ends by itself', async (t) => {
    const session = await startSdkSession(t, scenario().on('warm').thenAnswer('Warm answer.').build());
    const warm = await startup({ options: session.options });
    assert.equal(
      session.mock.requests.filter((r) => r.kind === 'main').length,
      0,
      'no turn before the prompt',
    );
    assert.equal(processesUsingHome(session.scratch.home).length > 0, true, 'the CLI is running');
    const messages = await collect(warm.query('[[warm]] hello'));
    const result = messages.findLast((m) => m.type === 'result') as { result?: string } | undefined;
    assert.equal(result?.result, 'Warm answer.');
    assert.equal(messages[0]?.type, 'system');
    assert.throws(() => warm.query('again'), TypeError);
    assert.deepEqual(session.warnings, []);
    assertNoProcessLeft(session);
  });

  it('query(iterable): each message gets its turn; the query ends when the iterable does', async (t) => {
    const session = await startSdkSession(
      t,
      scenario().on('one').thenAnswer('First.').on('two').thenAnswer('Second.').build(),
    );
    const warm = await startup({ options: session.options });
    const held = heldInput();
    held.send('[[one]] hi');
    const answers: string[] = [];
    await collect(warm.query(held.input), (message: SDKMessage) => {
      if (message.type !== 'result') return;
      answers.push(String((message as { result?: string }).result));
      if (answers.length === 1) held.send('[[two]] again');
      else held.end();
    });
    assert.deepEqual(answers, ['First.', 'Second.']);
    assertNoProcessLeft(session);
  });

  it('close() without a prompt stops the CLI; asyncDispose does the same', async (t) => {
    const session = await startSdkSession(t, scenario().build());
    const warm = await startup({ options: session.options });
    warm.close();
    assert.throws(() => warm.query('too late'), TypeError);
    await waitForNoProcess(session.scratch.home);
    assertNoProcessLeft(session);

    const disposable = await startup({ options: session.options });
    await disposable[Symbol.asyncDispose]();
    await waitForNoProcess(session.scratch.home);
    assertNoProcessLeft(session);
    assert.equal(session.mock.requests.filter((r) => r.kind === 'main').length, 0);
  });

  it('a CLI that never answers initialize: RequestTimeoutError after initializeTimeoutMs, and the CLI is stopped', async (t) => {
    const session = await startSdkSession(t, scenario().build());
    const silent = join(session.scratch.dir, 'silent-cli.sh');
    writeFileSync(silent, '#!/bin/sh\nexec cat > /dev/null\n');
    chmodSync(silent, 0o755);
    const startedAt = Date.now();
    await assert.rejects(
      startup({
        options: { ...session.options, pathToClaudeCodeExecutable: silent },
        initializeTimeoutMs: 300,
      }),
      (error: unknown) => {
        assert.ok(error instanceof RequestTimeoutError);
        assert.equal(error.code, 'REQUEST_TIMEOUT');
        assert.equal(error.subtype, 'initialize');
        assert.equal(error.timeoutMs, 300);
        return true;
      },
    );
    assert.ok(Date.now() - startedAt < 5000);
    await waitForNoProcess(session.scratch.home);
    assertNoProcessLeft(session);
  });

  it('a missing executable rejects startup() with a SpawnError; bad arguments are TypeErrors', async () => {
    await assert.rejects(
      startup({ options: { pathToClaudeCodeExecutable: '/nonexistent/claude', env: { PATH: '/usr/bin' } } }),
      SpawnError,
    );
    await assert.rejects(startup({ initializeTimeoutMs: -1 }), TypeError);
    await assert.rejects(startup({ options: { maxTurns: -2 } }), TypeError);
  });
});
