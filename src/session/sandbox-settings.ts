// The `sandbox` option reaches the CLI inside `--settings`: merged into an inline settings object the way
// the official SDK merges it, so both hosts hand the CLI the same JSON.
import type { SandboxSettings } from './option-types.js';

/** Lists that both sides add to rather than replace. */
const COMBINED_LISTS = new Set([
  'filesystem.denyRead',
  'filesystem.denyWrite',
  'network.deniedDomains',
  'credentials.files',
  'credentials.envVars',
]);
/** Objects the option replaces whole. */
const REPLACED_WHOLE = new Set(['ripgrep', 'network.tlsTerminate']);
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const PROXY_PORTS = ['httpProxyPort', 'socksProxyPort'] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(base: unknown, over: Json, path = ''): Json {
  const result: Json = isObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(over)) {
    if (UNSAFE_KEYS.has(key) || value === undefined) continue;
    const at = path ? `${path}.${key}` : key;
    const current = Object.hasOwn(result, key) ? result[key] : undefined;
    if (COMBINED_LISTS.has(at) && Array.isArray(current) && Array.isArray(value))
      result[key] = [...new Set<unknown>([...(current as unknown[]), ...(value as unknown[])])];
    else if (isObject(current) && isObject(value) && !REPLACED_WHOLE.has(at))
      result[key] = merge(current, value, at);
    else result[key] = value;
  }
  return result;
}

/** True for settings given inline as JSON text rather than as a file path. */
export function isInlineSettings(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith('{') && trimmed.endsWith('}');
}

/**
 * The `--settings` value for `settings` (a path, JSON text, or undefined) with `sandbox` merged in.
 * Throws TypeError for a settings file path combined with a sandbox, or settings that are not JSON.
 */
export function settingsWithSandbox(settings: string | undefined, sandbox: SandboxSettings): string {
  if (settings !== undefined && settings !== '' && !isInlineSettings(settings))
    throw new TypeError(
      'Cannot use both a settings file path and the sandbox option. Include the sandbox configuration in your settings file instead.',
    );
  let parsed: Json = {};
  if (settings) {
    try {
      parsed = JSON.parse(settings.trim()) as Json;
    } catch {
      throw new TypeError('Invalid JSON provided to the settings option.');
    }
  }
  const merged = merge(parsed.sandbox, sandbox);
  // A switch-off or a proxy from the inline settings would undo restrictions the option sets.
  const files = sandbox.credentials?.files;
  const restrictsFiles =
    sandbox.filesystem !== undefined ||
    (Array.isArray(files) && files.some((file) => isObject(file) && file.mode === 'deny'));
  const filesystem = merged.filesystem;
  if (
    restrictsFiles &&
    sandbox.filesystem?.disabled === undefined &&
    isObject(filesystem) &&
    filesystem.disabled === true
  )
    delete filesystem.disabled;
  const network = sandbox.network;
  const deniedDomains = network?.deniedDomains;
  const restrictsNetwork =
    network?.allowedDomains !== undefined ||
    (Array.isArray(deniedDomains) && deniedDomains.length > 0) ||
    network?.strictAllowlist === true;
  const mergedNetwork = merged.network;
  if (restrictsNetwork && isObject(mergedNetwork)) {
    for (const port of PROXY_PORTS) {
      if (network?.[port] === undefined && mergedNetwork[port] !== undefined) delete mergedNetwork[port];
    }
  }
  if (sandbox.enabled === true && merged.failIfUnavailable === undefined) merged.failIfUnavailable = true;
  return JSON.stringify({ ...parsed, sandbox: merged });
}
