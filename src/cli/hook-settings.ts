// The hook entries `warden hook install` writes into a Claude Code settings file, and takes out again.
// Pure text in, text out: the file's other settings, its indentation and its final newline are kept, and
// only entries whose command is Warden's own (`… hook run EVENT --config <this config>`) are removed.
import { ValidationError } from '../protocol/errors.js';

/** The events reported, and how long the CLI lets the hook wait (PermissionRequest: a person's answer). */
export function hookedEvents(waitMs: number): { event: string; matcher?: string; timeout?: number }[] {
  return [
    // The CLI's `timeout` is in seconds; the hook gives up a little before the CLI would kill it.
    { event: 'PermissionRequest', matcher: '*', timeout: Math.ceil(waitMs / 1000) + 10 },
    { event: 'UserPromptSubmit' },
    { event: 'Notification' },
    { event: 'Stop' },
  ];
}

type Json = Record<string, unknown>;

function parseSettings(text: string | null, path: string): Json {
  if (text === null || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(
      `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it first`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ValidationError(`${path} does not hold a JSON object`);
  return parsed as Json;
}

/** The indentation the file uses (its first indented line), two spaces for a new file. */
function indentOf(text: string | null): string | number {
  const match = text === null ? null : /\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? 2;
}

function serialise(settings: Json, like: string | null): string {
  const body = JSON.stringify(settings, null, indentOf(like));
  return like === null || like.endsWith('\n') ? `${body}\n` : body;
}

/** The settings text with Warden's hooks added (`commandFor(event)` is what each runs). */
export function withHooks(
  text: string | null,
  path: string,
  commandFor: (event: string) => string,
  waitMs: number,
): string {
  const settings = parseSettings(text, path);
  const hooks = (settings.hooks ?? {}) as Json;
  if (typeof hooks !== 'object' || Array.isArray(hooks))
    throw new ValidationError(`${path}: "hooks" is not an object`);
  for (const { event, matcher, timeout } of hookedEvents(waitMs)) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new ValidationError(`${path}: hooks.${event} is not a list`);
    hooks[event] = [
      ...(groups as unknown[]),
      {
        ...(matcher === undefined ? {} : { matcher }),
        hooks: [
          { type: 'command', command: commandFor(event), ...(timeout === undefined ? {} : { timeout }) },
        ],
      },
    ];
  }
  return serialise({ ...settings, hooks }, text);
}

/** The settings text without the hook entries `isOurs` recognises (and without what only held them). */
export function withoutHooks(text: string, path: string, isOurs: (command: string) => boolean): string {
  const settings = parseSettings(text, path);
  const hooks = settings.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return text;
  const kept: Json = {};
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) {
      kept[event] = groups;
      continue;
    }
    const left = groups.filter((group: unknown) => !isOursGroup(group, isOurs));
    if (left.length > 0) kept[event] = left;
  }
  const { hooks: _dropped, ...rest } = settings;
  return serialise(Object.keys(kept).length === 0 ? rest : { ...rest, hooks: kept }, text);
}

/** Whether the settings text holds any of Warden's entries. */
export function hasHooks(text: string | null, path: string, isOurs: (command: string) => boolean): boolean {
  const hooks = parseSettings(text, path).hooks;
  if (typeof hooks !== 'object' || hooks === null) return false;
  return Object.values(hooks as Json).some(
    (groups) => Array.isArray(groups) && groups.some((group: unknown) => isOursGroup(group, isOurs)),
  );
}

function isOursGroup(group: unknown, isOurs: (command: string) => boolean): boolean {
  const list = (group as { hooks?: unknown } | null)?.hooks;
  return (
    Array.isArray(list) &&
    list.length > 0 &&
    list.every((hook: unknown) => {
      const command = (hook as { command?: unknown } | null)?.command;
      return typeof command === 'string' && isOurs(command);
    })
  );
}

/** The change as a person reads it: the lines that differ, with two lines of context, `-` and `+`. */
export function lineDiff(before: string, after: string): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end += 1;
  const context = 2;
  return [
    ...a.slice(Math.max(0, start - context), start).map((line) => `  ${line}`),
    ...a.slice(start, a.length - end).map((line) => `- ${line}`),
    ...b.slice(start, b.length - end).map((line) => `+ ${line}`),
    ...a.slice(a.length - end, a.length - end + context).map((line) => `  ${line}`),
  ].join('\n');
}
