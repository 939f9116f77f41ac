// Writes src/sdk-tools.ts — the input and output types of Claude Code's built-in tools, under the names and
// in the order of the official Agent SDK's `sdk-tools.d.ts`. The input of each tool the real CLI offers a
// session run offline is generated from the JSON Schema it sends the model (test/fixtures/tool-schemas.json;
// scripts/capture-tool-schemas.ts captures them); every other declaration (the inputs of tools it did not
// offer, every `*Output`, `ToolInputSchemas`, `ToolOutputSchemas`) is the official package's own, read from
// its declarations at generation time (scripts/official-tool-declarations.ts): they are the published
// contract, and Claude Code publishes no output schema. It understands the subset of JSON Schema the
// schemas use: object (properties, required, additionalProperties, propertyNames), array (items; minItems
// with a small maxItems gives tuples, as the official declarations have them), string, number, integer,
// boolean, enum, const, anyOf/oneOf and allOf; other validation keywords (lengths, patterns, ranges) have no type.
//
//   node --import tsx scripts/generate-sdk-tools.ts          writes src/sdk-tools.ts
//   generateSdkTools(fixture, official)                      the file's text (test/unit/sdk-tools-generated)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import prettier from 'prettier';

import { readOfficialDeclarations, type OfficialDeclarations } from './official-tool-declarations.js';

export const FIXTURE_PATH = fileURLToPath(new URL('../test/fixtures/tool-schemas.json', import.meta.url));
export const OUTPUT_PATH = fileURLToPath(new URL('../src/sdk-tools.ts', import.meta.url));

/** Tool name on the wire → the official type name. Tools the official package has no type for are left out. */
export const TYPE_NAMES: Readonly<Record<string, string>> = {
  Agent: 'AgentInput',
  AskUserQuestion: 'AskUserQuestionInput',
  Bash: 'BashInput',
  CronCreate: 'CronCreateInput',
  CronDelete: 'CronDeleteInput',
  CronList: 'CronListInput',
  Edit: 'FileEditInput',
  EnterPlanMode: 'EnterPlanModeInput',
  EnterWorktree: 'EnterWorktreeInput',
  ExitPlanMode: 'ExitPlanModeInput',
  ExitWorktree: 'ExitWorktreeInput',
  Glob: 'GlobInput',
  Grep: 'GrepInput',
  ListMcpResourcesTool: 'ListMcpResourcesInput',
  Monitor: 'MonitorInput',
  NotebookEdit: 'NotebookEditInput',
  Read: 'FileReadInput',
  ReadMcpResourceDirTool: 'ReadMcpResourceDirInput',
  ReadMcpResourceTool: 'ReadMcpResourceInput',
  ReportFindings: 'ReportFindingsInput',
  ScheduleWakeup: 'ScheduleWakeupInput',
  TaskCreate: 'TaskCreateInput',
  TaskGet: 'TaskGetInput',
  TaskList: 'TaskListInput',
  TaskStop: 'TaskStopInput',
  TaskUpdate: 'TaskUpdateInput',
  TodoWrite: 'TodoWriteInput',
  WebFetch: 'WebFetchInput',
  WebSearch: 'WebSearchInput',
  Workflow: 'WorkflowInput',
  Write: 'FileWriteInput',
};

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  [key: string]: unknown;
};

export interface Fixture {
  claudeCodeVersion: string;
  tools: Record<string, Schema>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** The TypeScript type of a schema, inline. */
function typeOf(schema: Schema): string {
  if (schema.enum !== undefined) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return alternatives.map((part) => typeOf(part)).join(' | ');
  if (schema.allOf !== undefined && schema.allOf.some((part) => part.type !== undefined)) {
    // Each part constrains the same value; only parts that give a type add to it.
    const typed = schema.allOf.filter((part) => part.type !== undefined || part.properties !== undefined);
    const { allOf: _parts, ...own } = schema;
    return [typeOf(own), ...typed.map(typeOf)].join(' & ');
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return arrayType(schema);
    case 'object':
      return objectBody(schema);
    case undefined:
      return schema.properties === undefined ? 'unknown' : objectBody(schema);
    default:
      throw new Error(`unsupported JSON Schema type ${JSON.stringify(schema.type)}`);
  }
}

/** Longer tuples than this stay arrays (the official generator's default limit). */
const MAX_TUPLE = 20;

/** `T[]`, or for a bounded length the tuples of each allowed length: `[T] | [T, T]` for 1 to 2 items. */
function arrayType(schema: Schema): string {
  const item = schema.items === undefined ? 'unknown' : typeOf(schema.items);
  const min = schema.minItems ?? 0;
  const max = schema.maxItems;
  if (max === undefined || max > MAX_TUPLE) {
    const array = /^[\w$.]+$/.test(item) ? `${item}[]` : `(${item})[]`;
    return min === 0 || max !== undefined
      ? array
      : `[${[...Array<string>(min).fill(item), `...${array}`].join(', ')}]`;
  }
  const tuples: string[] = [];
  for (let length = min; length <= max; length++)
    tuples.push(`[${Array<string>(length).fill(item).join(', ')}]`);
  return tuples.join(' | ');
}

/** `{ a: T; b?: U; [k: string]: V }` for an object schema. */
function objectBody(schema: Schema): string {
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property)};`,
  );
  const extra = schema.additionalProperties;
  if (extra !== false)
    members.push(`[k: string]: ${extra === undefined || extra === true ? 'unknown' : typeOf(extra)};`);
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n}`;
}

/** The official output type's name for a tool: its input type's, `Input` → `Output`. */
export function outputName(tool: string): string | undefined {
  return TYPE_NAMES[tool]?.replace(/Input$/, 'Output');
}

/** The file's text: the official declarations in their order, each input the fixture has generated from it. */
export async function generateSdkTools(
  fixture: Fixture,
  official: OfficialDeclarations = readOfficialDeclarations(),
): Promise<string> {
  const generated = new Map<string, string>();
  for (const [tool, schema] of Object.entries(fixture.tools).sort(([a], [b]) => a.localeCompare(b))) {
    const name = TYPE_NAMES[tool];
    if (name !== undefined)
      generated.set(
        name,
        `/** The input of the \`${tool}\` tool. */\nexport interface ${name} ${objectBody(schema)}`,
      );
  }
  const officialNames = new Set(official.declarations.map(({ name }) => name));
  const declarations = [
    ...official.declarations.map(({ name, text }) => generated.get(name) ?? text),
    // An input the official package has no declaration for yet still reaches the file.
    ...[...generated].filter(([name]) => !officialNames.has(name)).map(([, text]) => text),
  ];
  const text = [
    '// Generated by scripts/generate-sdk-tools.ts. Do not edit by hand.',
    '//',
    "// The input and output types of Claude Code's built-in tools, named as in the official Agent SDK's",
    '// `sdk-tools`: narrow a `tool_use` block or a `canUseTool` input by the tool name, then read it as one of',
    "// the inputs; read a `tool_use_result` (or a hook's `tool_response`) of that tool as its output.",
    '//',
    `// The inputs of the tools Claude Code ${fixture.claudeCodeVersion} offers a session run offline are generated from the`,
    '// JSON Schemas it sends the model (test/fixtures/tool-schemas.json). Every other declaration — the inputs',
    '// of the tools it did not offer, the outputs, `ToolInputSchemas` and `ToolOutputSchemas` — is copied',
    `// from the declarations of @anthropic-ai/claude-agent-sdk ${official.version} (\`sdk-tools.d.ts\`), the published`,
    '// contract: Claude Code publishes no output schema. Nothing here imports that package.',
    '// The official declarations give a tool that takes no input an empty interface, and name documented values',
    "// beside `string` ('latest' | string); both are kept as they are.",
    '/* eslint-disable @typescript-eslint/no-empty-object-type, @typescript-eslint/no-redundant-type-constituents */',
    '',
    ...declarations.map((declaration) => `${declaration}\n`),
  ].join('\n');
  const options = await prettier.resolveConfig(OUTPUT_PATH);
  return prettier.format(text, { ...options, filepath: OUTPUT_PATH });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fixture = JSON.parse(readFileSync(FIXTURE_PATH, 'utf8')) as Fixture;
  writeFileSync(OUTPUT_PATH, await generateSdkTools(fixture));
  console.log(`wrote ${OUTPUT_PATH}`);
}
