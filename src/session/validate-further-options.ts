// The checks the official SDK makes at option intake for its newer options, as TypeErrors thrown at once
// (the official SDK throws plain Errors; the texts are the same where it has one).
import type { Options } from './options.js';

const DELIVERIES = ['argv', 'initialize'];
const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'];
const THINKING = ['adaptive', 'enabled', 'disabled'];
/** Parentheses, commas and control characters would break the `Skill(name)` rule the name becomes. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const BAD_SKILL_CHARACTERS = /[(),\u0000-\u001f\u007f-\u009f]/;

export function validateFurtherOptions(options: Options): void {
  if (options.sessionStore !== undefined) validateSessionStore(options);
  if (
    options.supportedDialogKinds !== undefined &&
    options.supportedDialogKinds.length > 0 &&
    !options.onUserDialog
  )
    throw new TypeError(
      'supportedDialogKinds requires an onUserDialog callback -- declaring dialog kinds without a handler would park dialogs nothing can answer. Provide onUserDialog, or omit supportedDialogKinds.',
    );
  for (const key of ['pluginDelivery', 'mcpServersDelivery'] as const) {
    const value = options[key];
    if (value !== undefined && !DELIVERIES.includes(value))
      throw new TypeError(`Invalid ${key}. Expected 'argv' or 'initialize'.`);
  }
  for (const plugin of options.plugins ?? []) {
    if (plugin?.type !== 'local') throw new TypeError(`Unsupported plugin type: ${String(plugin?.type)}`);
    if (typeof plugin.path !== 'string') throw new TypeError('options.plugins[].path must be a string');
  }
  if (options.effort !== undefined && !EFFORTS.includes(options.effort))
    throw new TypeError(`options.effort must be one of ${EFFORTS.join(', ')}`);
  if (options.thinking !== undefined && !THINKING.includes(options.thinking?.type))
    throw new TypeError(`options.thinking.type must be one of ${THINKING.join(', ')}`);
  if (
    options.maxThinkingTokens !== undefined &&
    (!Number.isInteger(options.maxThinkingTokens) || options.maxThinkingTokens < 0)
  )
    throw new TypeError('options.maxThinkingTokens must be a non-negative integer');
  if (options.outputFormat !== undefined && options.outputFormat?.type !== 'json_schema')
    throw new TypeError("options.outputFormat.type must be 'json_schema'");
  if (options.skills !== undefined && options.skills !== 'all') {
    if (!Array.isArray(options.skills))
      throw new TypeError("options.skills must be 'all' or an array of names");
    for (const name of options.skills) validateSkillName(name);
  }
  if (
    options.settings !== undefined &&
    typeof options.settings === 'string' &&
    options.sandbox !== undefined
  ) {
    const text = options.settings.trim();
    if (!text.startsWith('{'))
      throw new TypeError(
        'Cannot use both a settings file path and the sandbox option. Include the sandbox configuration in your settings file instead.',
      );
    try {
      JSON.parse(text);
    } catch {
      throw new TypeError('Invalid JSON provided to the settings option.');
    }
  }
}

function validateSessionStore(options: Options): void {
  const store = options.sessionStore;
  if (typeof store?.append !== 'function' || typeof store.load !== 'function')
    throw new TypeError('options.sessionStore must have append() and load()');
  if (options.persistSession === false)
    throw new TypeError(
      'sessionStore cannot be used with persistSession: false -- the storage adapter requires local writes to mirror from.',
    );
  if (options.continue && options.resume === undefined && store.listSessions === undefined)
    throw new TypeError('Options.continue with sessionStore requires store.listSessions to be implemented');
  if (options.enableFileCheckpointing)
    throw new TypeError(
      'enableFileCheckpointing is not yet supported with sessionStore (backup blobs are not mirrored, so rewindFiles() fails after a store-backed resume).',
    );
  const flush = options.sessionStoreFlush;
  if (flush !== undefined && flush !== 'batched' && flush !== 'eager')
    throw new TypeError("options.sessionStoreFlush must be 'batched' or 'eager'");
}

function validateSkillName(name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '')
    throw new TypeError('Skill names must be non-empty strings.');
  const shown = JSON.stringify(name);
  if (name !== name.trim())
    throw new TypeError(`Invalid skill name ${shown}: leading or trailing whitespace is not allowed.`);
  if (BAD_SKILL_CHARACTERS.test(name))
    throw new TypeError(
      `Invalid skill name ${shown}: parentheses, commas, and control characters are not allowed in skill names.`,
    );
  if (name === '*') throw new TypeError("Invalid skill name '*': use skills: 'all' to enable every skill.");
  if (name.endsWith(':*') || name.endsWith(' *') || name.endsWith('__*'))
    throw new TypeError(
      `Invalid skill name ${shown}: wildcard-suffix names are not allowed; list each skill by its exact name.`,
    );
  if (name.startsWith('/'))
    throw new TypeError(`Invalid skill name ${shown}: skill names may not start with '/'.`);
  if (name.includes('\\\\'))
    throw new TypeError(`Invalid skill name ${shown}: consecutive backslashes are not allowed.`);
  if (name.endsWith('\\'))
    throw new TypeError(`Invalid skill name ${shown}: names may not end with an unpaired backslash.`);
}
