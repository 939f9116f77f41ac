// The control protocol: envelopes in both directions, the CLI→host requests Warden answers, and builders
// for the frames the host writes. Schemas are loose (unknown fields pass) and check only what Warden acts
// on; parse helpers return the frame itself or a ProtocolError, and never throw.
//
// Envelopes (either direction; the receiver answers every request exactly once, except when withdrawn):
//   {"type":"control_request","request_id":…,"request":{"subtype":…,…}}
//   {"type":"control_response","response":{"subtype":"success","request_id":…,"response":{…}}}
//   {"type":"control_response","response":{"subtype":"error","request_id":…,"error":…,"error_code"?:…}}
//   {"type":"control_cancel_request","request_id":…}   (withdraws the sender's own request; no reply)
import { z } from 'zod';
import type { ProtocolError } from './errors.js';
import type { PermissionUpdate } from './permissions.js';
import { isRecord, validate } from './validate.js';

export * from './permissions.js';
export type * from './control-requests.js';
export * from './lifecycle-messages.js';

const JsonObject = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------------------------------------- envelopes

export const ControlRequestFrameSchema = z.looseObject({
  type: z.literal('control_request'),
  request_id: z.string().min(1),
  request: z.looseObject({ subtype: z.string().min(1) }),
});
export type ControlRequestFrame = z.infer<typeof ControlRequestFrameSchema>;

const PendingRequests = z.array(ControlRequestFrameSchema).optional();

export const ControlSuccessResponseSchema = z.looseObject({
  subtype: z.literal('success'),
  request_id: z.string().min(1),
  /** Absent (or `{}`) for requests that are only acknowledged. */
  response: JsonObject.optional(),
  /** Only on the `initialize` reply: prompts the CLI is still waiting on (e.g. after a reconnect). */
  pending_permission_requests: PendingRequests,
  pending_user_dialog_requests: PendingRequests,
  pending_elicitation_requests: PendingRequests,
});
export type ControlSuccessResponse = z.infer<typeof ControlSuccessResponseSchema>;

export const ControlErrorResponseSchema = z.looseObject({
  subtype: z.literal('error'),
  request_id: z.string().min(1),
  error: z.string(),
  /** snake_case, e.g. `unsupported_request`. */
  error_code: z.string().optional(),
});
export type ControlErrorResponse = z.infer<typeof ControlErrorResponseSchema>;

export const ControlResponseFrameSchema = z.looseObject({
  type: z.literal('control_response'),
  response: z.discriminatedUnion('subtype', [ControlSuccessResponseSchema, ControlErrorResponseSchema]),
});
export type ControlResponseFrame = z.infer<typeof ControlResponseFrameSchema>;

export const ControlCancelRequestFrameSchema = z.looseObject({
  type: z.literal('control_cancel_request'),
  request_id: z.string().min(1),
});
export type ControlCancelRequestFrame = z.infer<typeof ControlCancelRequestFrameSchema>;

/** Liveness, either direction; receivers ignore it. */
export interface KeepAliveFrame {
  type: 'keep_alive';
}

export const CONTROL_FRAME_TYPES = ['control_request', 'control_response', 'control_cancel_request'] as const;
export type ControlFrameType = (typeof CONTROL_FRAME_TYPES)[number];

export function isControlFrameType(type: unknown): type is ControlFrameType {
  return type === 'control_request' || type === 'control_response' || type === 'control_cancel_request';
}

/**
 * The checks of ControlRequestFrameSchema written out, for the path every permission request takes: it
 * accepts only what the schema accepts, and zod runs only when it fails, to describe the problem.
 */
function isWellFormedControlRequest(frame: unknown): frame is ControlRequestFrame {
  if (!isRecord(frame) || frame.type !== 'control_request') return false;
  const { request_id: requestId, request } = frame;
  return (
    typeof requestId === 'string' &&
    requestId !== '' &&
    isRecord(request) &&
    typeof request.subtype === 'string' &&
    request.subtype !== ''
  );
}

export function parseControlRequestFrame(frame: unknown): ControlRequestFrame | ProtocolError {
  if (isWellFormedControlRequest(frame)) return frame;
  return validate(ControlRequestFrameSchema, frame, 'control_request frame');
}

export function parseControlResponseFrame(frame: unknown): ControlResponseFrame | ProtocolError {
  return validate(ControlResponseFrameSchema, frame, 'control_response frame');
}

export function parseControlCancelRequestFrame(frame: unknown): ControlCancelRequestFrame | ProtocolError {
  return validate(ControlCancelRequestFrameSchema, frame, 'control_cancel_request frame');
}

// ------------------------------------------------------------------------- CLI → host request payloads

// Suggestions are handed to the application as they came: a variant newer than this release must not
// turn a permission prompt into a protocol failure.
const PermissionUpdateLike = z.custom<PermissionUpdate>(
  (value) => isRecord(value) && typeof value.type === 'string',
);

/** The CLI asks whether a tool call may run. Answer with a PermissionResult echoing `toolUseID`. */
export const CanUseToolRequestSchema = z.looseObject({
  subtype: z.literal('can_use_tool'),
  tool_name: z.string(),
  input: JsonObject,
  /** The tool call being decided (inside a subagent: the subagent's own call). */
  tool_use_id: z.string(),
  /** Set when a subagent asks: equal to the `task_id` of its task_started. */
  agent_id: z.string().optional(),
  permission_suggestions: z.array(PermissionUpdateLike).optional(),
  blocked_path: z.string().optional(),
  decision_reason: z.string().optional(),
  decision_reason_type: z.string().optional(),
  title: z.string().optional(),
  display_name: z.string().optional(),
  description: z.string().optional(),
  mcp_server: z.looseObject({ name: z.string(), source: z.string() }).optional(),
});
export type CanUseToolRequest = z.infer<typeof CanUseToolRequestSchema>;

/** A hook registered in `initialize` fired. The hook's output is the success payload, verbatim. */
export const HookCallbackRequestSchema = z.looseObject({
  subtype: z.literal('hook_callback'),
  callback_id: z.string(),
  input: z.looseObject({ hook_event_name: z.string() }),
  tool_use_id: z.string().optional(),
});
export type HookCallbackRequest = z.infer<typeof HookCallbackRequestSchema>;

/** A JSON-RPC message for an in-process MCP server. Answer `{mcp_response: <JSON-RPC response>}`. */
export const McpMessageRequestSchema = z.looseObject({
  subtype: z.literal('mcp_message'),
  server_name: z.string(),
  message: z.looseObject({ jsonrpc: z.string() }),
});
export type McpMessageRequest = z.infer<typeof McpMessageRequestSchema>;

/** An MCP server asks the user for input. The official SDK answers `{action:'decline'}` without a handler. */
export const ElicitationRequestSchema = z.looseObject({
  subtype: z.literal('elicitation'),
  mcp_server_name: z.string(),
  message: z.string(),
  mode: z.string().optional(),
  url: z.string().optional(),
  elicitation_id: z.string().optional(),
  requested_schema: JsonObject.optional(),
});
export type ElicitationRequest = z.infer<typeof ElicitationRequestSchema>;

export const RequestUserDialogRequestSchema = z.looseObject({
  subtype: z.literal('request_user_dialog'),
  dialog_kind: z.string(),
  payload: JsonObject,
  tool_use_id: z.string().optional(),
});
export type RequestUserDialogRequest = z.infer<typeof RequestUserDialogRequestSchema>;

export function parseCanUseToolRequest(request: unknown): CanUseToolRequest | ProtocolError {
  return validate(CanUseToolRequestSchema, request, 'can_use_tool request');
}

export function parseHookCallbackRequest(request: unknown): HookCallbackRequest | ProtocolError {
  return validate(HookCallbackRequestSchema, request, 'hook_callback request');
}

export function parseMcpMessageRequest(request: unknown): McpMessageRequest | ProtocolError {
  return validate(McpMessageRequestSchema, request, 'mcp_message request');
}

export function parseElicitationRequest(request: unknown): ElicitationRequest | ProtocolError {
  return validate(ElicitationRequestSchema, request, 'elicitation request');
}

export function parseRequestUserDialogRequest(request: unknown): RequestUserDialogRequest | ProtocolError {
  return validate(RequestUserDialogRequestSchema, request, 'request_user_dialog request');
}

// ------------------------------------------------------------------------------ frames the host writes
// Key order matches what the official SDK writes, so transcripts compare line for line.

export function controlRequestFrame(
  requestId: string,
  request: Record<string, unknown>,
): Record<string, unknown> {
  return { request_id: requestId, type: 'control_request', request };
}

export function controlSuccessFrame(
  requestId: string,
  response: Record<string, unknown>,
): Record<string, unknown> {
  return { type: 'control_response', response: { subtype: 'success', request_id: requestId, response } };
}

export function controlErrorFrame(
  requestId: string,
  error: string,
  errorCode?: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = { subtype: 'error', request_id: requestId, error };
  if (errorCode !== undefined) body.error_code = errorCode;
  return { type: 'control_response', response: body };
}

export function controlCancelFrame(requestId: string): Record<string, unknown> {
  return { type: 'control_cancel_request', request_id: requestId };
}

/** The error code the CLI expects for a subtype the host does not implement. */
export const UNSUPPORTED_REQUEST_ERROR_CODE = 'unsupported_request';

export function unsupportedSubtypeMessage(subtype: string): string {
  return `Unsupported control request subtype: ${subtype}`;
}
