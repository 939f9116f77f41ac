// Starts the real Codex app-server against the Responses API mock, in a private scratch directory, for
// one test: the server's requests wait in a queue until the test answers them, and everything is closed
// (and the process checked gone) when the test ends.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';

import {
  startCodexAppServer,
  CODEX_TEST_MODEL,
  codexProviderConfig,
} from '../../../src/agents/codex/index.js';
import type { CodexAppServer, ServerRequest, UnknownServerRequest } from '../../../src/agents/codex/index.js';
import { createScratch, offlineCodexEnv, startMockResponses } from '../../../src/testing/index.js';
import type { MockResponses, ResponsesScript, Scratch } from '../../../src/testing/index.js';

export interface AskedRequest {
  readonly request: ServerRequest | UnknownServerRequest;
  answer(result: unknown): void;
}

export interface OfflineCodex {
  readonly server: CodexAppServer;
  readonly mock: MockResponses;
  readonly scratch: Scratch;
  /** The next server request (past or future) with this method. */
  nextRequest(method: string): Promise<AskedRequest>;
}

export async function startOfflineCodex(
  t: TestContext,
  options: { script: ResponsesScript; config?: readonly string[] },
): Promise<OfflineCodex> {
  const scratch = createScratch('warden-codex-');
  t.after(() => scratch.cleanup());
  const mock = await startMockResponses({ script: options.script });
  t.after(() => mock.close());
  const asked: AskedRequest[] = [];
  const waiting: { method: string; resolve: (asked: AskedRequest) => void }[] = [];
  const server = await startCodexAppServer({
    cwd: scratch.cwd,
    env: offlineCodexEnv({ codexHome: scratch.home, home: scratch.home, tmpdir: scratch.tmpdir }),
    config: [
      ...codexProviderConfig({ baseUrl: mock.url, model: CODEX_TEST_MODEL }),
      ...(options.config ?? []),
    ],
    onServerRequest: (request) =>
      new Promise((resolve) => {
        const entry = { request, answer: resolve };
        const waiter = waiting.findIndex((w) => w.method === request.method);
        if (waiter === -1) asked.push(entry);
        else waiting.splice(waiter, 1)[0]?.resolve(entry);
      }),
  });
  t.after(async () => {
    await server.close();
    assert.throws(() => process.kill(server.pid, 0), /ESRCH/, 'no app-server is left');
  });
  return {
    server,
    mock,
    scratch,
    nextRequest: (method) => {
      const index = asked.findIndex((entry) => entry.request.method === method);
      if (index !== -1) return Promise.resolve(asked.splice(index, 1)[0] as AskedRequest);
      return new Promise((resolve) => waiting.push({ method, resolve }));
    },
  };
}
