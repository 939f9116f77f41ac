// can_use_tool → the caller's canUseTool → a reply the CLI accepts. Whatever the callback does (throws,
// returns garbage), the CLI gets a valid answer and the caller hears about the problem.
import { CallbackError, ProtocolError, toError } from '../protocol/errors.js';
import type { WardenError } from '../protocol/errors.js';
import { parseCanUseToolRequest, type PermissionUpdate } from '../protocol/control.js';
import { isRecord } from '../protocol/validate.js';
import { NO_REPLY } from '../control/control-channel.js';
import type { CanUseTool, MatchedAskRule } from './can-use-tool.js';

type Request = Record<string, unknown>;

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Builds the callback's third argument, leaving absent fields out (exactOptionalPropertyTypes). */
function callbackContext(
  request: Request,
  ctx: { requestId: string; signal: AbortSignal },
): Parameters<CanUseTool>[2] {
  const context: Parameters<CanUseTool>[2] = {
    // Read through: the channel makes the signal only if someone asks for it.
    get signal() {
      return ctx.signal;
    },
    toolUseID: optionalString(request.tool_use_id) ?? '',
    requestId: ctx.requestId,
  };
  if (Array.isArray(request.permission_suggestions))
    context.suggestions = request.permission_suggestions as PermissionUpdate[];
  // Written out rather than looped over: this runs for every permission request.
  if (typeof request.blocked_path === 'string') context.blockedPath = request.blocked_path;
  if (typeof request.decision_reason === 'string') context.decisionReason = request.decision_reason;
  if (typeof request.title === 'string') context.title = request.title;
  if (typeof request.display_name === 'string') context.displayName = request.display_name;
  if (typeof request.description === 'string') context.description = request.description;
  if (typeof request.agent_id === 'string') context.agentID = request.agent_id;
  if (typeof request.mcp_server === 'object' && request.mcp_server !== null)
    context.mcpServer = request.mcp_server as { name: string; source: string };
  if (typeof request.default_to_no === 'boolean') context.defaultToNo = request.default_to_no;
  if (typeof request.suppress_always_allow_rule === 'boolean')
    context.suppressAlwaysAllowRule = request.suppress_always_allow_rule;
  const askRule = matchedAskRule(request.matched_ask_rule);
  if (askRule !== undefined) context.matchedAskRule = askRule;
  return context;
}

/** The wire's `matched_ask_rule` ({source, tool_name, rule_content?}) in the callback's spelling. */
function matchedAskRule(value: unknown): MatchedAskRule | undefined {
  if (!isRecord(value) || typeof value.source !== 'string' || typeof value.tool_name !== 'string')
    return undefined;
  const rule: MatchedAskRule = { source: value.source, toolName: value.tool_name };
  if (typeof value.rule_content === 'string') rule.ruleContent = value.rule_content;
  return rule;
}

/** Turns whatever the callback returned into a reply the CLI validates (see protocol docs). */
export function toPermissionReply(
  result: unknown,
  input: Record<string, unknown>,
  toolUseID: string,
): { reply: Record<string, unknown>; problem?: string } {
  if (typeof result !== 'object' || result === null) {
    return {
      reply: denyReply('canUseTool returned no result; denied', toolUseID),
      problem: 'returned no object',
    };
  }
  const decision = result as Record<string, unknown>;
  if (decision.behavior === 'allow') {
    const reply: Record<string, unknown> = {
      behavior: 'allow',
      // Older CLIs require updatedInput on allow; the input unchanged is always valid.
      updatedInput: isRecord(decision.updatedInput) ? decision.updatedInput : input,
      toolUseID,
    };
    if (Array.isArray(decision.updatedPermissions)) reply.updatedPermissions = decision.updatedPermissions;
    if (typeof decision.decisionClassification === 'string')
      reply.decisionClassification = decision.decisionClassification;
    return { reply };
  }
  if (decision.behavior === 'deny') {
    const message =
      typeof decision.message === 'string' && decision.message !== '' ? decision.message : 'Denied';
    const reply = denyReply(message, toolUseID);
    if (decision.interrupt === true) reply.interrupt = true;
    if (typeof decision.decisionClassification === 'string')
      reply.decisionClassification = decision.decisionClassification;
    return { reply };
  }
  return {
    reply: denyReply(
      `canUseTool returned an invalid behavior ${JSON.stringify(decision.behavior)}; denied`,
      toolUseID,
    ),
    problem: `returned behavior ${JSON.stringify(decision.behavior)}`,
  };
}

function denyReply(message: string, toolUseID: string): Record<string, unknown> {
  return { behavior: 'deny', message, toolUseID };
}

/**
 * The fields a decision is about: a tool name, an input object and the tool call's id. A request without
 * them cannot be shown to anyone or answered for a known call, so it never reaches canUseTool. Checked by
 * hand on the hot path; zod runs only on a failure, to say what was wrong.
 */
function malformation(request: Request): ProtocolError | undefined {
  const { tool_name: toolName, input, tool_use_id: toolUseId } = request;
  if (typeof toolName === 'string' && toolName !== '' && isRecord(input))
    if (typeof toolUseId === 'string' && toolUseId !== '') return undefined;
  const parsed = parseCanUseToolRequest(request);
  const detail =
    parsed instanceof ProtocolError
      ? parsed.message
      : 'Invalid can_use_tool request (empty tool_name or tool_use_id)';
  return new ProtocolError(`${detail}; the request was denied without asking canUseTool`, undefined, {
    cause: parsed instanceof ProtocolError ? parsed : undefined,
  });
}

export function createPermissionHandler(
  canUseTool: CanUseTool,
  warn: (warning: WardenError) => void,
): (request: Request, ctx: { requestId: string; signal: AbortSignal }) => Promise<Record<string, unknown>> {
  return async (request, ctx) => {
    const malformed = malformation(request);
    if (malformed !== undefined) {
      warn(malformed);
      return denyReply(
        'Denied: the permission request was malformed (it needs a tool_name, an input object and a tool_use_id)',
        optionalString(request.tool_use_id) ?? '',
      );
    }
    const toolName = optionalString(request.tool_name) ?? '';
    const input = isRecord(request.input) ? request.input : {};
    const toolUseID = optionalString(request.tool_use_id) ?? '';
    let result: unknown;
    try {
      result = await canUseTool(toolName, input, callbackContext(request, ctx));
    } catch (error) {
      const cause = toError(error);
      // A callback cancelled on purpose is no failure: the CLI withdrew the request or the query closed
      // (its signal aborted; that reply is never written), or the callback gave up with an AbortError.
      if (!ctx.signal.aborted && cause.name !== 'AbortError')
        warn(
          new CallbackError(
            'canUseTool',
            `canUseTool threw for ${toolName}; the call was denied: ${cause.message}`,
            { cause },
          ),
        );
      return denyReply(`Permission callback failed: ${cause.message}`, toolUseID);
    }
    // Answered another way (the CLI already has its answer): nothing to send.
    if (result === null) return NO_REPLY;
    const { reply, problem } = toPermissionReply(result, input, toolUseID);
    if (problem !== undefined)
      warn(new CallbackError('canUseTool', `canUseTool ${problem} for ${toolName}; the call was denied`));
    return reply;
  };
}
