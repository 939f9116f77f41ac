import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallbackError, type WardenError } from '../../src/protocol/errors.js';
import { createPermissionHandler, toPermissionReply } from '../../src/session/permission-handler.js';

const request = {
  subtype: 'can_use_tool',
  tool_name: 'Bash',
  input: { command: 'touch x' },
  tool_use_id: 'toolu_1',
  agent_id: 'agent_1',
  blocked_path: '/etc/x',
  decision_reason: 'outside cwd',
  permission_suggestions: [
    { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' },
  ],
};

describe('permission replies', () => {
  it('allow echoes toolUseID and sends the input when the callback gives none', () => {
    const { reply } = toPermissionReply({ behavior: 'allow' }, { command: 'ls' }, 'toolu_9');
    assert.deepEqual(reply, { behavior: 'allow', updatedInput: { command: 'ls' }, toolUseID: 'toolu_9' });
  });

  it('allow passes updatedInput and updatedPermissions through', () => {
    const updates = [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }];
    const { reply } = toPermissionReply(
      { behavior: 'allow', updatedInput: { command: 'pwd' }, updatedPermissions: updates },
      { command: 'ls' },
      't',
    );
    assert.deepEqual(reply, {
      behavior: 'allow',
      updatedInput: { command: 'pwd' },
      updatedPermissions: updates,
      toolUseID: 't',
    });
  });

  it('deny always carries a message and keeps interrupt', () => {
    assert.deepEqual(toPermissionReply({ behavior: 'deny', message: 'no', interrupt: true }, {}, 't').reply, {
      behavior: 'deny',
      message: 'no',
      interrupt: true,
      toolUseID: 't',
    });
    assert.equal(toPermissionReply({ behavior: 'deny' }, {}, 't').reply.message, 'Denied');
  });

  it('an invalid result becomes a deny and names the problem', () => {
    const invalid = toPermissionReply({ behavior: 'maybe' }, {}, 't');
    assert.equal(invalid.reply.behavior, 'deny');
    assert.match(String(invalid.problem), /maybe/);
    assert.equal(toPermissionReply(undefined, {}, 't').reply.behavior, 'deny');
  });
});

describe('createPermissionHandler', () => {
  it('passes the request fields to canUseTool under the official names', async () => {
    let seen: unknown;
    const handler = createPermissionHandler(
      (toolName, input, options) => {
        seen = { toolName, input, ...options, signal: undefined };
        return Promise.resolve({ behavior: 'allow', updatedInput: input });
      },
      () => assert.fail('no warning expected'),
    );
    const reply = await handler(request, { requestId: 'req_1', signal: new AbortController().signal });
    assert.deepEqual(seen, {
      toolName: 'Bash',
      input: { command: 'touch x' },
      signal: undefined,
      toolUseID: 'toolu_1',
      requestId: 'req_1',
      suggestions: request.permission_suggestions,
      blockedPath: '/etc/x',
      decisionReason: 'outside cwd',
      agentID: 'agent_1',
    });
    assert.equal(reply.behavior, 'allow');
  });

  it('a callback that throws becomes a deny and the caller is told', async () => {
    const warnings: WardenError[] = [];
    const handler = createPermissionHandler(
      () => Promise.reject(new Error('database down')),
      (w) => warnings.push(w),
    );
    const reply = await handler(request, { requestId: 'r', signal: new AbortController().signal });
    assert.equal(reply.behavior, 'deny');
    assert.match(String(reply.message), /database down/);
    assert.equal(reply.toolUseID, 'toolu_1');
    assert.equal(warnings.length, 1);
    assert.ok(warnings[0] instanceof CallbackError);
    assert.equal(warnings[0].code, 'CALLBACK_FAILED');
  });

  it('a callback cancelled on purpose is denied without a warning', async () => {
    const warnings: WardenError[] = [];
    // Rejects once its signal aborts (the CLI withdrew the request, or the query closed).
    const onSignal = createPermissionHandler(
      (_name, _input, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error)),
        ),
      (w) => warnings.push(w),
    );
    const withdrawn = new AbortController();
    const pending = onSignal(request, { requestId: 'r1', signal: withdrawn.signal });
    withdrawn.abort(new Error('The CLI withdrew control request can_use_tool (r1)'));
    assert.equal((await pending).behavior, 'deny');
    // Gives up by itself with an AbortError, its signal untouched.
    const givesUp = createPermissionHandler(
      () => Promise.reject(new DOMException('the user closed the prompt', 'AbortError')),
      (w) => warnings.push(w),
    );
    const reply = await givesUp(request, { requestId: 'r2', signal: new AbortController().signal });
    assert.equal(reply.behavior, 'deny');
    assert.deepEqual(warnings, []);
  });
});
