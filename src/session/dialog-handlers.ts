// The CLI's requests for a person's input outside permissions: MCP elicitations (`elicitation`) and
// dialogs the host renders (`request_user_dialog`). Answered as the official SDK answers them: with the
// callback's result; without onElicitation an elicitation is declined, and without onUserDialog a dialog
// gets no answer at all (another client, or the CLI's own deadline, settles it).
import { NO_REPLY, type ControlChannel } from '../control/control-channel.js';
import type { ElicitationRequest, UserDialogRequest } from './option-types.js';
import type { Options } from './options.js';

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The fields that are set; absent, never undefined. */
function withoutUndefined<T>(value: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function registerDialogHandlers(channel: ControlChannel, options: Options): void {
  const { onElicitation, onUserDialog } = options;
  channel.handle('elicitation', async (request, { requestId, signal }) => {
    if (onElicitation === undefined) return { action: 'decline' };
    const mode = request.mode === 'form' || request.mode === 'url' ? request.mode : undefined;
    const result = await onElicitation(
      withoutUndefined<ElicitationRequest>({
        serverName: optionalString(request.mcp_server_name) ?? '',
        message: optionalString(request.message) ?? '',
        mode,
        url: optionalString(request.url),
        elicitationId: optionalString(request.elicitation_id),
        requestedSchema:
          typeof request.requested_schema === 'object' && request.requested_schema !== null
            ? (request.requested_schema as Record<string, unknown>)
            : undefined,
        title: optionalString(request.title),
        displayName: optionalString(request.display_name),
        description: optionalString(request.description),
      }),
      { signal, requestId },
    );
    return result === null ? NO_REPLY : result;
  });
  channel.handle('request_user_dialog', async (request, { requestId, signal }) => {
    if (onUserDialog === undefined) return NO_REPLY;
    const payload =
      typeof request.payload === 'object' && request.payload !== null
        ? (request.payload as Record<string, unknown>)
        : {};
    const result = await onUserDialog(
      withoutUndefined<UserDialogRequest>({
        dialogKind: optionalString(request.dialog_kind) ?? '',
        payload,
        toolUseID: optionalString(request.tool_use_id),
      }),
      { signal, requestId },
    );
    return result === null ? NO_REPLY : result;
  });
}
