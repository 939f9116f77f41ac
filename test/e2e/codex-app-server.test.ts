// The real Codex app-server (the pinned CLI) against the Responses API mock: a shell command that needs
// approval is asked for, accepted and run, and its output reaches the model's next request; a file change
// is declined, with its reason given to the model through turn/steer (Codex's decisions carry none).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import type {
  CommandExecutionRequestApprovalParams,
  FileChangeRequestApprovalParams,
} from '../../src/agents/codex/index.js';
import type { ResponsesContext, ResponsesScript } from '../../src/testing/index.js';
import { startOfflineCodex } from './helpers/offline-codex.js';

const COMMAND = 'echo made-by-codex > made.txt && cat made.txt';
const PATCH = '*** Begin Patch\n*** Add File: declined.txt\n+never written\n*** End Patch\n';
/** A write outside the workspace, and a socket: Codex's own sandbox (bubblewrap and seccomp) refuses both. */
const OUTSIDE =
  'touch ../outside.txt; echo write=$?; (exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null; echo net=$?';
const REASON = 'Not this file: keep the project as it is.';

/** Every request the model saw, for the assertions on what reached it. */
const seen: ResponsesContext[] = [];

const script: ResponsesScript = (ctx) => {
  seen.push(ctx);
  if (ctx.turnMarker === 'shell' && ctx.turnRounds === 0)
    return {
      items: [
        { type: 'text', text: 'Running it.' },
        { type: 'exec', cmd: COMMAND },
      ],
    };
  if (ctx.turnMarker === 'outside' && ctx.turnRounds === 0)
    return { items: [{ type: 'exec', cmd: OUTSIDE }] };
  if (ctx.turnMarker === 'patch' && ctx.turnRounds === 0) return { items: [{ type: 'patch', patch: PATCH }] };
  return { items: [{ type: 'text', text: `seen: ${ctx.toolOutputs.map((o) => o.output).join(' | ')}` }] };
};

async function startThread(codex: Awaited<ReturnType<typeof startOfflineCodex>>) {
  const { thread } = await codex.server.startThread({
    cwd: codex.scratch.cwd,
    approvalPolicy: 'untrusted',
    sandbox: 'workspace-write',
  });
  return thread.id;
}

void test(
  'a shell command that needs approval is asked for, accepted and run; the model sees its output',
  { timeout: 60_000 },
  async (t) => {
    const codex = await startOfflineCodex(t, { script });
    const threadId = await startThread(codex);
    const completed = codex.server.nextNotification((n) => n.method === 'turn/completed');
    await codex.server.startTurn({
      threadId,
      input: [{ type: 'text', text: '[[shell]] make a file', text_elements: [] }],
    });

    const asked = await codex.nextRequest('item/commandExecution/requestApproval');
    const params = asked.request.params as CommandExecutionRequestApprovalParams;
    assert.equal(params.threadId, threadId);
    assert.match(params.command ?? '', /echo made-by-codex > made\.txt/);
    assert.equal(params.cwd, codex.scratch.cwd);
    assert.ok(Array.isArray(params.proposedExecpolicyAmendment), 'Codex proposes the rule it would add');
    assert.equal(existsSync(join(codex.scratch.cwd, 'made.txt')), false, 'nothing runs before the answer');
    asked.answer({ decision: 'accept' });

    const turn = await completed;
    assert.equal((turn.params['turn'] as { status: string }).status, 'completed');
    assert.equal(readFileSync(join(codex.scratch.cwd, 'made.txt'), 'utf8'), 'made-by-codex\n');
    const next = await codex.mock.waitForRequest((r) => (r.toolOutputs?.length ?? 0) > 0);
    assert.match(next.toolOutputs?.[0]?.output ?? '', /Process exited with code 0[\s\S]*made-by-codex/);
  },
);

void test(
  'a file change declined with a reason is not written, and the model reads both',
  { timeout: 60_000 },
  async (t) => {
    const codex = await startOfflineCodex(t, { script });
    const threadId = await startThread(codex);
    const completed = codex.server.nextNotification((n) => n.method === 'turn/completed');
    const { turn } = await codex.server.startTurn({
      threadId,
      input: [{ type: 'text', text: '[[patch]] add a file', text_elements: [] }],
    });

    const asked = await codex.nextRequest('item/fileChange/requestApproval');
    const params = asked.request.params as FileChangeRequestApprovalParams;
    assert.equal(params.turnId, turn.id);
    await codex.server.steerTurn({
      threadId,
      expectedTurnId: turn.id,
      input: [{ type: 'text', text: REASON, text_elements: [] }],
    });
    asked.answer({ decision: 'decline' });

    await completed;
    assert.equal(existsSync(join(codex.scratch.cwd, 'declined.txt')), false);
    // The reason arrives as a user message after the declined call's output, in the same turn.
    const afterReason = seen.find((ctx) => ctx.turnText === REASON);
    assert.ok(
      afterReason !== undefined,
      `the reason reaches the model within the turn; the model was asked: ${JSON.stringify(
        codex.mock.requests.map((r) => ({ n: r.n, turnText: r.turnText, reply: r.reply, done: r.done })),
      )}`,
    );
    const input = afterReason.body['input'] as { type: string; output?: string }[];
    const output = input.find((item) => item.type === 'custom_tool_call_output');
    assert.equal(output?.output, 'patch rejected by user');
  },
);

void test(
  "with no approvals asked, Codex's own sandbox keeps a command to the workspace and off the network",
  { timeout: 60_000 },
  async (t) => {
    // The scratch directory is under /tmp, which workspace-write leaves writable unless told otherwise.
    const codex = await startOfflineCodex(t, {
      script,
      config: [
        'sandbox_workspace_write.exclude_slash_tmp=true',
        'sandbox_workspace_write.exclude_tmpdir_env_var=true',
      ],
    });
    const { thread } = await codex.server.startThread({
      cwd: codex.scratch.cwd,
      approvalPolicy: 'never',
      sandbox: 'workspace-write',
    });
    const completed = codex.server.nextNotification((n) => n.method === 'turn/completed');
    await codex.server.startTurn({
      threadId: thread.id,
      input: [{ type: 'text', text: '[[outside]] try', text_elements: [] }],
    });
    await completed;
    const next = await codex.mock.waitForRequest((r) => (r.toolOutputs?.length ?? 0) > 0);
    const output = next.toolOutputs?.[0]?.output ?? '';
    assert.match(output, /Read-only file system/);
    assert.match(output, /write=1/);
    assert.match(output, /net=1/);
    assert.equal(existsSync(join(codex.scratch.dir, 'outside.txt')), false);
  },
);
