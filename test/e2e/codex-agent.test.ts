// The Codex app-server behind the agent boundary: Warden's policy answers first (an allow rule lets a
// command run without asking anyone), what it leaves open reaches the thread's handler, and a denial with
// a reason keeps the command from running and tells the model why.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { CODEX_TEST_MODEL, codexProviderConfig } from '../../src/agents/codex/index.js';
import { policyFor } from '../../src/policy/index.js';
import type { AgentPermissionRequest } from '../../src/supervisor/agents/agent.js';
import { startCodexAgent } from '../../src/supervisor/agents/codex-agent.js';
import { createScratch, offlineCodexEnv, startMockResponses } from '../../src/testing/index.js';
import type { ResponsesContext } from '../../src/testing/index.js';

const ALLOWED = 'touch allowed.txt';
const ASKED = 'touch asked.txt';
const REASON = 'Leave asked.txt alone.';

void test(
  'the policy allows by its rule, the handler denies with a reason: the model hears it, nothing is written',
  { timeout: 60_000 },
  async (t) => {
    const scratch = createScratch('warden-codex-agent-');
    t.after(() => scratch.cleanup());
    const seen: ResponsesContext[] = [];
    const mock = await startMockResponses({
      script: (ctx) => {
        seen.push(ctx);
        if (ctx.turnMarker !== 'go') return null;
        if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: ALLOWED }] };
        if (ctx.turnRounds === 1) return { items: [{ type: 'exec', cmd: ASKED }] };
        return null;
      },
    });
    t.after(() => mock.close());
    const asked: AgentPermissionRequest[] = [];
    const agent = await startCodexAgent({
      cwd: scratch.cwd,
      env: offlineCodexEnv({ codexHome: scratch.home, home: scratch.home, tmpdir: scratch.tmpdir }),
      config: codexProviderConfig({ baseUrl: mock.url, model: CODEX_TEST_MODEL }),
      policy: policyFor({
        mode: 'supervised',
        rules: { allow: ['Bash(touch allowed.txt)'] },
        cwd: scratch.cwd,
      }),
      onPermission: (request) => {
        asked.push(request);
        return Promise.resolve({ behavior: 'deny', message: REASON });
      },
    });
    t.after(() => agent.stop());

    const ended = agent.turnEnded();
    await agent.send('[[go]] two commands');
    const status = await ended;

    assert.equal(existsSync(join(scratch.cwd, 'allowed.txt')), true);
    assert.equal(existsSync(join(scratch.cwd, 'asked.txt')), false);
    assert.deepEqual(
      agent.decided.map(({ request, decision, by }) => [request.input['command'], decision.behavior, by]),
      [
        [ALLOWED, 'allow', 'policy'],
        [ASKED, 'deny', 'handler'],
      ],
    );
    assert.equal(asked.length, 1, 'only what the policy left open reached the handler');
    assert.equal(asked[0]?.kind, 'command');
    assert.ok(
      seen.some((ctx) => ctx.turnText === REASON),
      'the reason reaches the model',
    );
    assert.equal(status, 'completed', 'a plain deny lets the turn go on');
  },
);
