// Control frame schemas against real frames from the transcripts: they parse, come back as the same
// object with every unknown field, and malformed frames give a ProtocolError value instead of a throw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  ControlRequestFrameSchema,
  controlErrorFrame,
  controlSuccessFrame,
  parseCanUseToolRequest,
  parseControlCancelRequestFrame,
  parseControlRequestFrame,
  parseControlResponseFrame,
  parseElicitationRequest,
  parseHookCallbackRequest,
  parseMcpMessageRequest,
  parseRequestUserDialogRequest,
} from '../../src/protocol/control.js';
import type { PermissionResult } from '../../src/protocol/control.js';
import { ProtocolError, WardenError } from '../../src/protocol/errors.js';
import type { Frame } from './helpers/frame-recorder.js';
import { cliFrames, firstCliFrame, hostFrames, loadTranscript } from './helpers/transcript.js';

const S1 = loadTranscript('S1');
const S2 = loadTranscript('S2');
const S3 = loadTranscript('S3-close');
const Q1 = loadTranscript('Q1');

const ALL = ['S1', 'S2', 'S3-close', 'S4', 'Q1', 'Q2-noperm-pta'].map(loadTranscript);

describe('control frames from real transcripts', () => {
  it('every control frame in every transcript parses, as the same object', () => {
    let count = 0;
    for (const entries of ALL) {
      for (const frame of [...cliFrames(entries), ...hostFrames(entries)]) {
        const parse =
          frame.type === 'control_request'
            ? parseControlRequestFrame
            : frame.type === 'control_response'
              ? parseControlResponseFrame
              : frame.type === 'control_cancel_request'
                ? parseControlCancelRequestFrame
                : undefined;
        if (parse === undefined) continue;
        count += 1;
        const parsed = parse(frame);
        assert.ok(
          !(parsed instanceof ProtocolError),
          parsed instanceof ProtocolError ? parsed.message : undefined,
        );
        assert.equal(parsed, frame);
      }
    }
    assert.ok(count >= 30, `saw ${count} control frames`);
  });

  it('can_use_tool from the root agent (S1): the fields the session reads, unknown ones kept', () => {
    const frame = firstCliFrame(S1, (f) => f.request?.subtype === 'can_use_tool', 'can_use_tool');
    const request = parseCanUseToolRequest(frame.request);
    assert.ok(!(request instanceof ProtocolError));
    assert.equal(request.tool_name, 'Bash');
    assert.equal(request.tool_use_id, 'toolu_mock_0001');
    assert.equal(request.agent_id, undefined);
    assert.equal(request.permission_suggestions?.[0]?.type, 'addRules');
    assert.equal(request.blocked_path, '/srv/warden-test/work/s1.out');
    assert.equal(request.display_name, 'Bash');
  });

  it('can_use_tool from a background subagent (S3): agent_id and the undocumented fields pass through', () => {
    const frame = firstCliFrame(S3, (f) => f.request?.subtype === 'can_use_tool', 'can_use_tool');
    const request = parseCanUseToolRequest(frame.request);
    assert.ok(!(request instanceof ProtocolError));
    assert.equal(typeof request.agent_id, 'string');
    assert.equal(request.decision_reason_type, 'workingDir');
    assert.equal(request.server_policy_ask_only, true);
  });

  it('the allow and deny replies the official SDK wrote are valid PermissionResults in valid envelopes', () => {
    const allowLine = hostFrames(S1).find((f) => f.type === 'control_response');
    const denyLine = hostFrames(S2).find((f) => f.type === 'control_response');
    for (const line of [allowLine, denyLine]) {
      const parsed = parseControlResponseFrame(line);
      assert.ok(!(parsed instanceof ProtocolError));
      assert.equal(parsed.response.subtype, 'success');
    }
    const allow = allowLine?.response.response as PermissionResult;
    const deny = denyLine?.response.response as PermissionResult;
    assert.equal(allow.behavior, 'allow');
    assert.equal(deny.behavior === 'deny' && deny.message, 'Denied by S2 test policy');
    assert.equal(allow.toolUseID, 'toolu_mock_0001');
    assert.equal(deny.toolUseID, 'toolu_mock_0001');
  });

  it('the builders write the official SDK lines byte for byte', () => {
    const recorded = hostFrames(S2).find((f) => f.type === 'control_response')!;
    const built = controlSuccessFrame(recorded.response.request_id, recorded.response.response);
    assert.equal(JSON.stringify(built), JSON.stringify(recorded));
    assert.equal(
      JSON.stringify(controlErrorFrame('r', 'Unsupported control request subtype: x', 'unsupported_request')),
      '{"type":"control_response","response":{"subtype":"error","request_id":"r","error":"Unsupported control request subtype: x","error_code":"unsupported_request"}}',
    );
  });

  it('initialize reply (Q1) carries pending_permission_requests and passes the rest through', () => {
    const frame = firstCliFrame(Q1, (f) => f.type === 'control_response', 'initialize reply');
    const parsed = parseControlResponseFrame(frame);
    assert.ok(!(parsed instanceof ProtocolError) && parsed.response.subtype === 'success');
    assert.deepEqual(parsed.response.pending_permission_requests, []);
    assert.equal(parsed.response.response?.claude_code_version, '2.1.328');
  });

  it('control_cancel_request from the CLI (Q1) parses', () => {
    const frame = firstCliFrame(Q1, (f) => f.type === 'control_cancel_request', 'cancel');
    const parsed = parseControlCancelRequestFrame(frame);
    assert.ok(!(parsed instanceof ProtocolError));
    assert.equal(typeof parsed.request_id, 'string');
  });
});

describe('inbound request payloads', () => {
  it('hook_callback, mcp_message, elicitation and request_user_dialog parse with their fields', () => {
    const hook = parseHookCallbackRequest({
      subtype: 'hook_callback',
      callback_id: 'hook_0',
      input: { hook_event_name: 'PreToolUse', tool_name: 'Write' },
      tool_use_id: 'toolu_1',
    });
    assert.ok(!(hook instanceof ProtocolError) && hook.input.tool_name === 'Write');
    const mcp = parseMcpMessageRequest({
      subtype: 'mcp_message',
      server_name: 'srv',
      message: { jsonrpc: '2.0', id: 8, method: 'tools/call' },
    });
    assert.ok(!(mcp instanceof ProtocolError) && mcp.message.method === 'tools/call');
    const elicitation = parseElicitationRequest({
      subtype: 'elicitation',
      mcp_server_name: 's',
      message: 'Name?',
    });
    assert.ok(!(elicitation instanceof ProtocolError));
    const dialog = parseRequestUserDialogRequest({
      subtype: 'request_user_dialog',
      dialog_kind: 'k',
      payload: {},
    });
    assert.ok(!(dialog instanceof ProtocolError));
  });

  it('a can_use_tool without tool_use_id or with a non-object input is a ProtocolError naming the field', () => {
    const missing = parseCanUseToolRequest({ subtype: 'can_use_tool', tool_name: 'Bash', input: {} });
    assert.ok(missing instanceof ProtocolError);
    assert.equal(missing.code, 'PROTOCOL_ERROR');
    assert.match(missing.message, /tool_use_id/);
    const badInput = parseCanUseToolRequest({
      subtype: 'can_use_tool',
      tool_name: 'B',
      input: 'ls',
      tool_use_id: 't',
    });
    assert.ok(badInput instanceof ProtocolError);
    assert.match(badInput.message, /input/);
  });

  it('a permission suggestion of a type this release does not know still passes', () => {
    const request = parseCanUseToolRequest({
      subtype: 'can_use_tool',
      tool_name: 'Bash',
      input: {},
      tool_use_id: 't',
      permission_suggestions: [{ type: 'grantCapability', capability: 'net' }],
    });
    assert.ok(!(request instanceof ProtocolError));
    assert.deepEqual(request.permission_suggestions, [{ type: 'grantCapability', capability: 'net' }]);
  });
});

describe('malformed frames', () => {
  const request = parseControlRequestFrame;
  const response = parseControlResponseFrame;
  const cases: [string, (frame: unknown) => unknown, unknown][] = [
    ['request without its request object', request, { type: 'control_request', request_id: 'x' }],
    ['request without subtype', request, { type: 'control_request', request_id: 'x', request: {} }],
    [
      'request with a numeric id',
      request,
      { type: 'control_request', request_id: 7, request: { subtype: 'a' } },
    ],
    ['response without body', response, { type: 'control_response' }],
    [
      'response of unknown subtype',
      response,
      { type: 'control_response', response: { subtype: 'maybe', request_id: 'x' } },
    ],
    [
      'error response without message',
      response,
      { type: 'control_response', response: { subtype: 'error', request_id: 'x' } },
    ],
    ['cancel without id', parseControlCancelRequestFrame, { type: 'control_cancel_request' }],
    ['a string', request, 'control_request'],
    ['null', response, null],
  ];
  for (const [name, parse, frame] of cases) {
    it(`${name} → ProtocolError with a bounded excerpt`, () => {
      const parsed = parse(frame);
      assert.ok(parsed instanceof ProtocolError);
      assert.ok(WardenError.isWardenError(parsed));
      assert.ok((parsed.excerpt ?? '').length <= 201);
    });
  }

  it('no parse helper throws, whatever it is given', () => {
    const parsers = [
      parseControlRequestFrame,
      parseControlResponseFrame,
      parseControlCancelRequestFrame,
      parseCanUseToolRequest,
      parseHookCallbackRequest,
      parseMcpMessageRequest,
    ];
    fc.assert(
      fc.property(fc.anything({ withObjectString: true, withNullPrototype: true }), (value) => {
        for (const parse of parsers) {
          const result = parse(value) as unknown;
          assert.ok(result instanceof ProtocolError || result === value);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the control_request fast path accepts exactly what its schema accepts', () => {
    const near = fc.oneof(fc.string(), fc.constant(''), fc.integer(), fc.constant(null), fc.anything());
    const frames = fc.record(
      {
        type: fc.oneof(fc.constant('control_request'), fc.constant('control_response'), near),
        request_id: near,
        request: fc.oneof(
          fc.record({ subtype: near, extra: fc.anything() }, { requiredKeys: [] }),
          fc.array(fc.anything()),
          near,
        ),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(frames, (frame) => {
        const accepted = !(parseControlRequestFrame(frame) instanceof ProtocolError);
        assert.equal(accepted, ControlRequestFrameSchema.safeParse(frame).success, JSON.stringify(frame));
      }),
      { numRuns: 2000 },
    );
  });

  it('a long malformed frame gives a bounded excerpt', () => {
    const parsed = parseControlRequestFrame({
      type: 'control_request',
      request_id: 'x',
      padding: 'y'.repeat(10_000),
    });
    assert.ok(parsed instanceof ProtocolError);
    assert.ok(parsed.message.length < 600);
  });

  it('a frame that cannot be serialised still gives a ProtocolError', () => {
    const cyclic: Frame = { type: 'control_request' };
    cyclic.self = cyclic;
    assert.ok(parseControlRequestFrame(cyclic) instanceof ProtocolError);
  });
});
