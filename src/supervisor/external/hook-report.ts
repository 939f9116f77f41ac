// What a Claude Code hook reports about a session Warden did not start, checked once where it comes in.
// The hook passes on the CLI's stdin object as it is: only the fields acted on are read, each checked;
// everything else in it (and the CLI adds fields every release) is ignored, never stored.
import { ValidationError } from '../../protocol/errors.js';

/** The hook events Warden acts on (docs/external-sessions.md). */
export const HOOK_EVENTS = ['PermissionRequest', 'UserPromptSubmit', 'Notification', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** A session id as the CLI makes them (a UUID), or anything as plain; never a path or markup. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;
const MAX_TEXT = 100_000;

export interface HookReport {
  readonly event: HookEvent;
  readonly sessionId: string;
  readonly cwd: string;
  /** PermissionRequest: the call the CLI asks about. */
  readonly toolName: string | null;
  readonly toolInput: Record<string, unknown> | null;
  /** UserPromptSubmit: the prompt; Notification: the message. */
  readonly text: string | null;
  readonly notificationType: string | null;
  readonly suggestions: unknown[];
}

function text(value: unknown, field: string, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw new ValidationError(`the hook's ${field} is missing`, field);
    return null;
  }
  if (typeof value !== 'string' || value.length > MAX_TEXT)
    throw new ValidationError(
      `the hook's ${field} must be a string of at most ${MAX_TEXT} characters`,
      field,
    );
  return value;
}

export function validateHookReport(event: unknown, payload: unknown): HookReport {
  if (!(HOOK_EVENTS as readonly unknown[]).includes(event))
    throw new ValidationError(`event must be one of ${HOOK_EVENTS.join(', ')}`, 'event');
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new ValidationError("the hook's input must be a JSON object", 'payload');
  const fields = payload as Record<string, unknown>;
  const sessionId = text(fields.session_id, 'session_id', true) ?? '';
  if (!SESSION_ID.test(sessionId))
    throw new ValidationError('session_id is not a CLI session id', 'session_id');
  const cwd = text(fields.cwd, 'cwd', true) ?? '';
  if (!cwd.startsWith('/')) throw new ValidationError('cwd must be an absolute path', 'cwd');
  const asking = event === 'PermissionRequest';
  const toolName = asking ? text(fields.tool_name, 'tool_name', true) : null;
  const input = fields.tool_input;
  if (asking && (typeof input !== 'object' || input === null || Array.isArray(input)))
    throw new ValidationError('tool_input must be an object', 'tool_input');
  const said =
    event === 'UserPromptSubmit'
      ? text(fields.prompt, 'prompt', true)
      : event === 'Notification'
        ? text(fields.message, 'message', true)
        : null;
  return {
    event: event as HookEvent,
    sessionId,
    cwd,
    toolName,
    toolInput: asking ? (input as Record<string, unknown>) : null,
    text: said,
    notificationType:
      event === 'Notification' ? text(fields.notification_type, 'notification_type', false) : null,
    suggestions: asking && Array.isArray(fields.permission_suggestions) ? fields.permission_suggestions : [],
  };
}
