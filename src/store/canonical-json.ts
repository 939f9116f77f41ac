// Canonical JSON: the one byte sequence a value hashes as, so that anyone can recompute an audit record's
// hash from its content with any JSON library. It is RFC 8785 (JCS) for the values Warden writes:
// - objects: members sorted by key, comparing keys as strings of UTF-16 code units (JavaScript's default
//   string order); members whose value is `undefined` are left out;
// - arrays: in order; an `undefined` element is `null` (as JSON.stringify has it);
// - strings, finite numbers, true, false, null: exactly as JSON.stringify writes them (ECMAScript's
//   shortest number form, `\u` escapes only for control characters and lone surrogates);
// - no whitespace anywhere; the text is hashed as UTF-8.
// Anything else (NaN, Infinity, bigint, functions, symbols) is a TypeError: it has no JSON form.

export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${String(value)} has no canonical JSON form`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (typeof value !== 'object') throw new TypeError(`A ${typeof value} has no canonical JSON form`);
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}
