// Schemas for the fields of the stdout messages the input lifecycle acts on: when a turn ends, which
// background tasks are alive, what state the CLI reports. Only those fields are checked; the rest of each
// message (and every other message) passes through untouched. The session's input lifecycle reads these.
import { z } from 'zod';
import type { ProtocolError } from './errors.js';
import { isRecord, validate } from './validate.js';

/** One per turn, including turns the CLI starts by itself (then `origin.kind` is 'task-notification'). */
export const ResultFieldsSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean().optional(),
  session_id: z.string().optional(),
  origin: z.looseObject({ kind: z.string() }).optional(),
  /** On error subtypes. */
  errors: z.array(z.string()).optional(),
});
export type ResultFields = z.infer<typeof ResultFieldsSchema>;

/** Starts every turn; carries the session id and the CLI's capabilities. */
export const InitFieldsSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  session_id: z.string(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  permissionMode: z.string().optional(),
  claude_code_version: z.string().optional(),
  capabilities: z.array(z.string()).optional(),
});
export type InitFields = z.infer<typeof InitFieldsSchema>;

export const TaskStartedFieldsSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('task_started'),
  task_id: z.string(),
  run_id: z.string().optional(),
  tool_use_id: z.string().optional(),
  task_type: z.string().optional(),
  is_backgrounded: z.boolean().optional(),
});
export type TaskStartedFields = z.infer<typeof TaskStartedFieldsSchema>;

export const TaskNotificationFieldsSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('task_notification'),
  task_id: z.string(),
  run_id: z.string().optional(),
  tool_use_id: z.string().optional(),
  /** 'completed' | 'failed' | 'stopped' on 2.1.328; kept open so a new status still ends the task. */
  status: z.string(),
});
export type TaskNotificationFields = z.infer<typeof TaskNotificationFieldsSchema>;

export const TaskUpdatedFieldsSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('task_updated'),
  task_id: z.string(),
  patch: z.looseObject({ status: z.string().optional() }),
});
export type TaskUpdatedFields = z.infer<typeof TaskUpdatedFieldsSchema>;

/** A level signal: the complete list of live background tasks. Replace, never merge. */
export const BackgroundTasksChangedFieldsSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('background_tasks_changed'),
  tasks: z.array(z.looseObject({ task_id: z.string(), ambient: z.boolean().optional() })),
});
export type BackgroundTasksChangedFields = z.infer<typeof BackgroundTasksChangedFieldsSchema>;

export const SessionStateChangedFieldsSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('session_state_changed'),
  state: z.enum(['idle', 'running', 'requires_action']),
  /** Present when requested with CLAUDE_CODE_SDK_READS_SESSION_STATE=1; the official SDK swallows these. */
  sdk_host_only: z.boolean().optional(),
});
export type SessionStateChangedFields = z.infer<typeof SessionStateChangedFieldsSchema>;

export type LifecycleMessage =
  | ResultFields
  | InitFields
  | TaskStartedFields
  | TaskNotificationFields
  | TaskUpdatedFields
  | BackgroundTasksChangedFields
  | SessionStateChangedFields;

const SYSTEM_SCHEMAS: Record<string, z.ZodType<LifecycleMessage>> = {
  init: InitFieldsSchema,
  task_started: TaskStartedFieldsSchema,
  task_notification: TaskNotificationFieldsSchema,
  task_updated: TaskUpdatedFieldsSchema,
  background_tasks_changed: BackgroundTasksChangedFieldsSchema,
  session_state_changed: SessionStateChangedFieldsSchema,
};

/**
 * For a message the input lifecycle acts on, returns it typed (the same object) or a ProtocolError if its
 * fields are malformed. Returns undefined for every other message: those are none of its business.
 */
export function parseLifecycleMessage(frame: unknown): LifecycleMessage | ProtocolError | undefined {
  if (!isRecord(frame)) return undefined;
  if (frame.type === 'result') return validate(ResultFieldsSchema, frame, 'result message');
  if (frame.type !== 'system' || typeof frame.subtype !== 'string') return undefined;
  const schema = Object.hasOwn(SYSTEM_SCHEMAS, frame.subtype) ? SYSTEM_SCHEMAS[frame.subtype] : undefined;
  return schema === undefined ? undefined : validate(schema, frame, `system/${frame.subtype} message`);
}
