// A Codex agent's approvals in the supervisor's approval records, answered there as a person answers in
// the inbox: a command allowed through Supervisor.decide runs, and a file change denied with a reason is
// not written while the model reads why. The Codex thread shows as the supervisor's external thread.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { CODEX_TEST_MODEL, codexProviderConfig } from '../../src/agents/codex/index.js';
import { policyFor } from '../../src/policy/index.js';
import type { CodexAgent } from '../../src/supervisor/agents/codex-agent.js';
import { startCodexAgent } from '../../src/supervisor/agents/codex-agent.js';
import { codexInboxHandler } from '../../src/supervisor/agents/codex-inbox.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { createScratch, offlineCodexEnv, startMockResponses, until } from '../../src/testing/index.js';
import type { ResponsesContext } from '../../src/testing/index.js';

const COMMAND = 'echo from-the-inbox > inbox.txt';
const PATCH = '*** Begin Patch\n*** Add File: refused.txt\n+no\n*** End Patch\n';
const REASON = 'Refused in the inbox: not this file.';

void test(
  'a Codex command approved in the supervisor runs; a file change denied there is not written',
  { timeout: 60_000 },
  async (t) => {
    const scratch = createScratch('warden-codex-inbox-');
    t.after(() => scratch.cleanup());
    const sup = await Supervisor.open({
      dataDir: join(scratch.dir, 'data'),
      env: { PATH: process.env.PATH },
    });
    t.after(() => sup.close({ stopAgents: true }));
    const seen: ResponsesContext[] = [];
    const mock = await startMockResponses({
      script: (ctx) => {
        seen.push(ctx);
        if (ctx.turnMarker !== 'go') return null;
        if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: COMMAND }] };
        if (ctx.turnRounds === 1) return { items: [{ type: 'patch', patch: PATCH }] };
        return null;
      },
    });
    t.after(() => mock.close());
    // The handler needs the Codex thread id, known once the agent has started.
    const started: { agent?: CodexAgent } = {};
    const agent = await startCodexAgent({
      cwd: scratch.cwd,
      env: offlineCodexEnv({ codexHome: scratch.home, home: scratch.home, tmpdir: scratch.tmpdir }),
      config: codexProviderConfig({ baseUrl: mock.url, model: CODEX_TEST_MODEL }),
      policy: policyFor({ mode: 'supervised', cwd: scratch.cwd }),
      onPermission: codexInboxHandler(sup, {
        conversationId: () => started.agent?.conversationId ?? '',
        cwd: scratch.cwd,
        reporter: 'codex',
      }),
    });
    started.agent = agent;
    t.after(() => agent.stop());

    const ended = agent.turnEnded();
    await agent.send('[[go]] a command, then a file');
    const pending = () => sup.listApprovals({ status: 'pending' });
    const command = await until(() => pending()[0]);
    assert.equal(command.toolName, 'Bash');
    assert.equal(command.input['command'], COMMAND);
    assert.equal(existsSync(join(scratch.cwd, 'inbox.txt')), false, 'nothing runs before the answer');
    await sup.decide(command.id, { behavior: 'allow' });

    const change = await until(() => pending().find((approval) => approval.id !== command.id));
    assert.equal(change.toolName, 'Write');
    assert.equal(change.threadId, command.threadId, 'one thread holds the Codex conversation');
    await sup.decide(change.id, { behavior: 'deny', message: REASON });

    assert.equal(await ended, 'completed');
    assert.equal(readFileSync(join(scratch.cwd, 'inbox.txt'), 'utf8'), 'from-the-inbox\n');
    assert.equal(existsSync(join(scratch.cwd, 'refused.txt')), false);
    assert.ok(
      seen.some((ctx) => ctx.turnText.includes(REASON)),
      'the reason reaches the model',
    );
    assert.deepEqual(
      sup
        .listApprovals({ threadId: command.threadId })
        .map((approval) => approval.status)
        .sort(),
      ['allowed', 'denied'],
    );
  },
);
