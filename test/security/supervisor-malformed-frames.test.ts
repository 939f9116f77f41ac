// Frames the supervisor acts on are checked before it acts. A can_use_tool without a tool name, an input
// object or a tool call id is denied with a clear message and a warning and never becomes an approval; a
// result that cannot be read fails its run with a reason instead of leaving the thread wedged. Against the
// real CLI, with the frames written into its stdout by a wrapper; and through the supervisor's own gate.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import { ProtocolError, type WardenError } from '../../src/protocol/errors.js';
import { createPermissionHandler } from '../../src/session/permission-handler.js';
import { pinnedClaudePath, scenario } from '../../src/testing/index.js';
import { allEvents, waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { frames, openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { openSecuritySession, tappedFrames } from './supervisor-helpers.js';

const INJECT = fileURLToPath(new URL('./supervisor-inject-cli.mjs', import.meta.url));

function protocolWarnings(warnings: readonly WardenError[]): ProtocolError[] {
  return warnings.filter(
    (w): w is ProtocolError => w instanceof ProtocolError && w.code === 'PROTOCOL_ERROR',
  );
}

describe('supervisor: malformed frames from the CLI', { timeout: 120_000 }, () => {
  it('a can_use_tool without a tool name or input is denied and never becomes an approval', async (t) => {
    const injected = {
      type: 'control_request',
      request_id: 'injected-1',
      request: { subtype: 'can_use_tool', tool_name: 42, input: 'nope', tool_use_id: 'toolu_injected' },
    };
    const { sup, thread, warnings, scratch } = await openSecuritySession(
      t,
      scenario().on('x').thenAnswer('done').build(),
      {
        claudePath: () => INJECT,
        env: (s) => ({
          WARDEN_INJECT_CLI: pinnedClaudePath(),
          WARDEN_INJECT_AFTER_INIT: JSON.stringify([injected]),
          WARDEN_INJECT_LOG: join(s.dir, 'stdin.jsonl'),
        }),
      },
    );
    const log = join(scratch.dir, 'stdin.jsonl');
    const run = await sup.send(thread.id, '[[x]] hello');
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed', 'the turn itself went on');
    assert.deepEqual(sup.listApprovals(), [], 'no approval was made');
    const events = await allEvents(sup);
    assert.equal(events.filter((e) => e.type === 'approval.requested').length, 0);

    const reply = tappedFrames(log).find(
      (frame) => (frame.response as { request_id?: unknown } | undefined)?.request_id === 'injected-1',
    );
    assert.deepEqual(
      (reply?.response as { response?: unknown } | undefined)?.response,
      {
        behavior: 'deny',
        message:
          'Denied: the permission request was malformed (it needs a tool_name, an input object and a tool_use_id)',
        toolUseID: 'toolu_injected',
      },
      'the CLI got a deny that says why',
    );
    const [warning, ...others] = protocolWarnings(warnings);
    assert.equal(others.length, 0);
    assert.match(warning?.message ?? '', /can_use_tool request .*tool_name.*denied/s);
  });

  it('a bare result fails its run with a reason; the next message runs and completes', async (t) => {
    const { sup, thread, warnings } = await openSecuritySession(
      t,
      scenario().on('a').thenAnswer('first').on('b').thenAnswer('second').build(),
      {
        claudePath: () => INJECT,
        env: () => ({
          WARDEN_INJECT_CLI: pinnedClaudePath(),
          WARDEN_INJECT_AFTER_INIT: JSON.stringify([{ type: 'result' }]),
        }),
      },
    );
    const first = await sup.send(thread.id, '[[a]] one');
    const failed = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === first.id);
    assert.deepEqual([failed.data.status, failed.data.reason], ['failed', 'malformed_result']);
    const [warning] = protocolWarnings(warnings);
    assert.match(warning?.message ?? '', /malformed result.*subtype/s);

    const second = await sup.send(thread.id, '[[b]] two');
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === second.id);
    assert.deepEqual([ended.data.status, ended.data.result?.text], ['completed', 'second']);
    assert.deepEqual(
      sup.getThread(thread.id).runs.map((r) => [r.id, r.status]),
      [
        [first.id, 'failed'],
        [second.id, 'completed'],
      ],
      'the late real result of the failed turn was given to no other run',
    );
  });

  it('the gate denies a malformed request from any query, records it, and warns', async (t) => {
    const { sup, made, thread, warnings } = await openFakeSupervisor(t);
    const { fake, runId, uuid } = await startTurn(sup, made, thread.id, 'work');
    const asked = fake.ask(42 as never, 'nope' as never);
    const result = await asked.result;
    assert.equal(result.behavior, 'deny');
    assert.match(result.behavior === 'deny' ? result.message : '', /malformed \(tool_name/);
    assert.deepEqual(sup.listApprovals(), []);
    const rejected = await waitForEvent(sup, 'permission.rejected');
    assert.equal(rejected.data.condition, 'malformed_request');
    assert.equal(protocolWarnings(warnings).length, 1);

    // A result without is_error is not read as a success either.
    fake.emit({ type: 'result', subtype: 'success', user_message_uuid: uuid });
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === runId);
    assert.deepEqual([ended.data.status, ended.data.reason], ['failed', 'malformed_result']);
    fake.emit(frames.result([uuid]));
    const next = await sup.send(thread.id, 'again');
    assert.equal(next.status, 'running', 'the next message is not queued behind the failed run');
  });

  it("query()'s permission handler never calls canUseTool for such a request", async () => {
    const calls: unknown[] = [];
    const warnings: WardenError[] = [];
    const handle = createPermissionHandler(
      (toolName, input) => {
        calls.push([toolName, input]);
        return Promise.resolve({ behavior: 'allow', updatedInput: input });
      },
      (warning) => warnings.push(warning),
    );
    const ctx = { requestId: 'r1', signal: new AbortController().signal };
    const cases = [
      { subtype: 'can_use_tool', tool_name: 42, input: 'nope', tool_use_id: 'toolu_1' },
      { subtype: 'can_use_tool', tool_name: '', input: {}, tool_use_id: 'toolu_1' },
      { subtype: 'can_use_tool', tool_name: 'Bash', input: ['ls'], tool_use_id: 'toolu_1' },
      { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'ls' } },
    ];
    for (const request of cases) {
      const reply = await handle(request, ctx);
      assert.equal(reply.behavior, 'deny', JSON.stringify(request));
    }
    assert.deepEqual(calls, []);
    assert.equal(protocolWarnings(warnings).length, cases.length);
  });
});
