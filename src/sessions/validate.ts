// Argument checks for the session functions: a wrong type is a TypeError at once, as for query().
const STRING_OPTIONS = new Set(['dir', 'upToMessageId', 'title']);
const COUNT_OPTIONS = new Set(['limit', 'offset']);
const BOOLEAN_OPTIONS = new Set(['includeWorktrees', 'includeProgrammatic', 'includeSystemMessages']);

export function checkOptions(options: object, keys: readonly string[]): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const record = options as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (value === undefined) continue;
    if (STRING_OPTIONS.has(key) && typeof value !== 'string')
      throw new TypeError(`options.${key} must be a string`);
    if (COUNT_OPTIONS.has(key) && !(typeof value === 'number' && Number.isInteger(value) && value >= 0))
      throw new TypeError(`options.${key} must be a non-negative integer`);
    if (BOOLEAN_OPTIONS.has(key) && typeof value !== 'boolean')
      throw new TypeError(`options.${key} must be a boolean`);
  }
  if (record.onWarning !== undefined && typeof record.onWarning !== 'function')
    throw new TypeError('options.onWarning must be a function');
}

/** `offset` then `limit`; a limit of 0 means no limit, as in the official SDK. */
export function page<T>(items: T[], offset: number | undefined, limit: number | undefined): T[] {
  const start = offset ?? 0;
  return limit === undefined || limit === 0 ? items.slice(start) : items.slice(start, start + limit);
}
