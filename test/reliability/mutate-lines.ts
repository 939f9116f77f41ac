// Mutations of real JSON-lines files for the fuzzers: drop, duplicate, swap or truncate lines, flip
// characters, insert junk, and inside a line's JSON replace, delete or retype a value at any depth.
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type Mutation =
  | { op: 'drop' | 'duplicate' | 'truncate' | 'flip' | 'retype' | 'delete'; line: number; at: number }
  | { op: 'swap'; line: number; other: number }
  | { op: 'junk'; line: number; text: string }
  | { op: 'replace'; line: number; at: number; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    op: fc.constantFrom('drop', 'duplicate', 'truncate', 'flip', 'retype', 'delete' as const),
    line: fc.nat(),
    at: fc.nat(),
  }),
  fc.record({ op: fc.constant('swap' as const), line: fc.nat(), other: fc.nat() }),
  fc.record({
    op: fc.constant('junk' as const),
    line: fc.nat(),
    text: fc.string({ unit: 'binary', maxLength: 80 }),
  }),
  fc.record({
    op: fc.constant('replace' as const),
    line: fc.nat(),
    at: fc.nat(),
    value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  }),
);

/** 1–5 mutations applied in turn to `lines`. */
export function mutatedLines(lines: readonly string[]): fc.Arbitrary<string[]> {
  return fc.array(mutation, { minLength: 1, maxLength: 5 }).map((mutations) => {
    const out = [...lines];
    for (const m of mutations) apply(out, m);
    return out;
  });
}

function apply(lines: string[], m: Mutation): void {
  if (lines.length === 0) {
    if (m.op === 'junk') lines.push(m.text);
    return;
  }
  const i = m.line % lines.length;
  const line = lines[i]!;
  switch (m.op) {
    case 'drop':
      lines.splice(i, 1);
      return;
    case 'duplicate':
      lines.splice(i, 0, line);
      return;
    case 'swap': {
      const j = m.other % lines.length;
      [lines[i], lines[j]] = [lines[j]!, line];
      return;
    }
    case 'truncate':
      lines[i] = line.slice(0, m.at % (line.length + 1));
      return;
    case 'flip': {
      const at = m.at % Math.max(1, line.length);
      lines[i] =
        line.slice(0, at) +
        String.fromCharCode((line.charCodeAt(at) + 1 + (m.at % 7)) % 128) +
        line.slice(at + 1);
      return;
    }
    case 'junk':
      lines.splice(i, 0, m.text);
      return;
    case 'retype':
    case 'delete':
    case 'replace':
      lines[i] = mutateJson(line, m);
      return;
  }
}

/** Changes one value of the line's JSON, chosen among every object member and array element. */
function mutateJson(line: string, m: Extract<Mutation, { at: number }>): string {
  let root: Json;
  try {
    root = JSON.parse(line) as Json;
  } catch {
    return line;
  }
  const slots: { parent: Json[] | { [key: string]: Json }; key: string | number }[] = [];
  const walk = (value: Json): void => {
    if (Array.isArray(value))
      value.forEach((item, index) => {
        slots.push({ parent: value, key: index });
        walk(item);
      });
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) {
        slots.push({ parent: value, key });
        walk(item);
      }
  };
  walk(root);
  if (slots.length === 0) return line;
  const { parent, key } = slots[m.at % slots.length]!;
  const current = (parent as Record<string | number, Json>)[key]!;
  if (m.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else {
    (parent as Record<string | number, Json>)[key] = m.op === 'replace' ? m.value : retyped(current);
  }
  return JSON.stringify(root);
}

function retyped(value: Json): Json {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 1 : null;
  if (value === null) return {};
  if (Array.isArray(value)) return value.length === 0 ? 'x' : { 0: value[0]! };
  return Object.keys(value);
}
