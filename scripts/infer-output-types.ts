// The `*Output` types of sdk-tools, inferred from what the real CLI returned (test/fixtures/tool-outputs.json,
// captured by scripts/capture-tool-outputs.ts): Claude Code publishes no output schema, so the results it
// gives are the only source. A field present in every result of a tool is required, one present in some is
// optional; a string stays `string` (a result seen as 'create' may be 'update' the next time).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OUTPUTS_PATH = fileURLToPath(new URL('../test/fixtures/tool-outputs.json', import.meta.url));

export interface OutputsFixture {
  claudeCodeVersion: string;
  /** Tool name → the `tool_use_result` values seen. */
  tools: Record<string, unknown[]>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The TypeScript type that every one of `samples` has, inline. */
export function inferType(samples: readonly unknown[]): string {
  const parts: string[] = [];
  for (const kind of ['string', 'number', 'boolean'] as const)
    if (samples.some((sample) => typeof sample === kind)) parts.push(kind);
  const arrays = samples.filter((sample) => Array.isArray(sample));
  if (arrays.length > 0) {
    const items = arrays.flat();
    const item = items.length === 0 ? 'unknown' : inferType(items);
    parts.push(/^[\w$.]+$/.test(item) ? `${item}[]` : `(${item})[]`);
  }
  const objects = samples.filter(isRecord);
  if (objects.length > 0) parts.push(objectType(objects));
  if (samples.some((sample) => sample === null)) parts.push('null');
  return parts.length === 0 ? 'unknown' : parts.join(' | ');
}

/** `{ a: T; b?: U }`: the keys of all the objects, in the order first seen. */
export function objectType(objects: readonly Record<string, unknown>[]): string {
  const keys = [...new Set(objects.flatMap((object) => Object.keys(object)))];
  const members = keys.map((name) => {
    const present = objects.filter((object) => name in object);
    const optional = present.length < objects.length ? '?' : '';
    return `${IDENTIFIER.test(name) ? name : JSON.stringify(name)}${optional}: ${inferType(present.map((o) => o[name]))};`;
  });
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n}`;
}

export function readOutputs(): OutputsFixture {
  return JSON.parse(readFileSync(OUTPUTS_PATH, 'utf8')) as OutputsFixture;
}
