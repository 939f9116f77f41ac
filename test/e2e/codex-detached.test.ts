// A pending Codex approval survives its host: the app-server runs detached (stdin a FIFO, stdout a
// spool), the first host goes away while a command waits for approval, and a second host joins the same
// process, is asked again from the spool, answers, and the command runs. The request the first host had
// answered is not asked again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  CODEX_TEST_MODEL,
  attachCodexAppServer,
  codexProviderConfig,
  spawnDetachedCodexAppServer,
} from '../../src/agents/codex/index.js';
import type { ServerRequest, UnknownServerRequest } from '../../src/agents/codex/index.js';
import { createScratch, offlineCodexEnv, startMockResponses, until } from '../../src/testing/index.js';

const FIRST = 'echo first > first.txt';
const SECOND = 'echo second > second.txt';

void test(
  'a command approval pending when its host goes away is answered by the next host',
  { timeout: 60_000 },
  async (t) => {
    const scratch = createScratch('warden-codex-detached-');
    t.after(() => scratch.cleanup());
    const mock = await startMockResponses({
      script: (ctx) => {
        if (ctx.turnMarker !== 'go') return null;
        if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: FIRST }] };
        if (ctx.turnRounds === 1) return { items: [{ type: 'exec', cmd: SECOND }] };
        return null;
      },
    });
    t.after(() => mock.close());

    // The first host answers the first request and leaves while the second waits.
    const askedFirst: (ServerRequest | UnknownServerRequest)[] = [];
    let secondAsked: () => void = () => undefined;
    const waitingForSecond = new Promise<void>((resolve) => (secondAsked = resolve));
    const { server, process, transport } = await spawnDetachedCodexAppServer({
      dir: join(scratch.dir, 'codex'),
      cwd: scratch.cwd,
      env: offlineCodexEnv({ codexHome: scratch.home, home: scratch.home, tmpdir: scratch.tmpdir }),
      config: codexProviderConfig({ baseUrl: mock.url, model: CODEX_TEST_MODEL }),
      onServerRequest: (request) => {
        askedFirst.push(request);
        if (askedFirst.length === 1) return Promise.resolve({ decision: 'accept' });
        secondAsked();
        return new Promise(() => undefined);
      },
    });
    // Whichever host holds the process at the end closes it.
    const holder: { joined?: { close(): Promise<void> } } = {};
    t.after(async () => {
      await (holder.joined ?? transport).close();
      // close() resolves once the process has exited; this test's process reaps it (it is the parent)
      // a moment later, and only then does its pid go.
      await until(() => {
        try {
          globalThis.process.kill(process.identity.pid, 0);
          return undefined;
        } catch (error) {
          return (error as NodeJS.ErrnoException).code === 'ESRCH' ? true : undefined;
        }
      }, 'the app-server gone');
    });
    const { thread } = await server.startThread({
      cwd: scratch.cwd,
      approvalPolicy: 'untrusted',
      sandbox: 'workspace-write',
    });
    await server.startTurn({
      threadId: thread.id,
      input: [{ type: 'text', text: '[[go]] two commands', text_elements: [] }],
    });
    await waitingForSecond;
    assert.equal(readFileSync(join(scratch.cwd, 'first.txt'), 'utf8'), 'first\n');
    await transport.detach();

    // The second host: the same process, asked again for what is still pending, and only that.
    const askedSecond: (ServerRequest | UnknownServerRequest)[] = [];
    const second = attachCodexAppServer(process, {
      onServerRequest: (request) => {
        askedSecond.push(request);
        return Promise.resolve({ decision: 'accept' });
      },
    });
    holder.joined = second;
    await second.nextNotification((n) => n.method === 'turn/completed');
    assert.equal(readFileSync(join(scratch.cwd, 'second.txt'), 'utf8'), 'second\n');
    assert.deepEqual(
      askedSecond.map((request) => request.id),
      [askedFirst[1]?.id],
      'only the request still pending is asked again, by its id',
    );
    assert.ok(existsSync(join(process.dir, 'output')));
  },
);
