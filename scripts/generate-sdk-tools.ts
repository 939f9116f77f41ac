// Writes src/sdk-tools.ts — the input types of Claude Code's built-in tools, named as the official Agent
// SDK's `sdk-tools` names them — from test/fixtures/tool-schemas.json (the schemas the real CLI sends the
// model; scripts/capture-tool-schemas.ts captures them). It understands the subset of JSON Schema those
// schemas use: object (properties, required, additionalProperties, propertyNames), array (items), string,
// number, integer, boolean, enum, const, anyOf/oneOf and allOf; validation keywords (lengths, patterns, ranges) have no type.
//
//   node --import tsx scripts/generate-sdk-tools.ts          writes src/sdk-tools.ts
//   generateSdkTools(fixture)                                the file's text (test/unit/sdk-tools-generated)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import prettier from 'prettier';

import { objectType, readOutputs, type OutputsFixture } from './infer-output-types.js';

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
    case 'array': {
      const item = schema.items === undefined ? 'unknown' : typeOf(schema.items);
      return /^[\w$.]+$/.test(item) ? `${item}[]` : `(${item})[]`;
    }
    case 'object':
      return objectBody(schema);
    case undefined:
      return schema.properties === undefined ? 'unknown' : objectBody(schema);
    default:
      throw new Error(`unsupported JSON Schema type ${JSON.stringify(schema.type)}`);
  }
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

function outputDeclarations(outputs: OutputsFixture): { declarations: string[]; names: string[] } {
  const declarations: string[] = [];
  const names: string[] = [];
  for (const [tool, samples] of Object.entries(outputs.tools).sort(([a], [b]) => a.localeCompare(b))) {
    const name = outputName(tool);
    const objects = samples.filter((sample) => typeof sample === 'object' && sample !== null);
    if (name === undefined || objects.length === 0) continue;
    names.push(name);
    const body = objectType(objects as Record<string, unknown>[]);
    declarations.push(
      `/** The result of the \`${tool}\` tool (\`tool_use_result\`), as Claude Code ${outputs.claudeCodeVersion} returned it. */\nexport interface ${name} ${body}\n`,
    );
  }
  return { declarations, names };
}

export async function generateSdkTools(
  fixture: Fixture,
  outputs: OutputsFixture = { claudeCodeVersion: fixture.claudeCodeVersion, tools: {} },
): Promise<string> {
  const declarations: string[] = [];
  const names: string[] = [];
  for (const [tool, schema] of Object.entries(fixture.tools).sort(([a], [b]) => a.localeCompare(b))) {
    const name = TYPE_NAMES[tool];
    if (name === undefined) continue;
    names.push(name);
    const body = objectBody(schema);
    // The official type is an empty interface too: the tool takes no input.
    const lint = body === '{}' ? '// eslint-disable-next-line @typescript-eslint/no-empty-object-type\n' : '';
    declarations.push(`/** The input of the \`${tool}\` tool. */\n${lint}export interface ${name} ${body}\n`);
  }
  const results = outputDeclarations(outputs);
  const text = [
    '// Generated by scripts/generate-sdk-tools.ts from test/fixtures/tool-schemas.json (the tool schemas of',
    `// Claude Code ${fixture.claudeCodeVersion}, as it sends them to the model) and test/fixtures/tool-outputs.json`,
    '// (what it returned from the tools it runs offline). Do not edit by hand.',
    '//',
    "// The input and output types of Claude Code's built-in tools, named as in the official Agent SDK's",
    '// `sdk-tools`: narrow a `tool_use` block or a `canUseTool` input by the tool name, then read it as one of',
    "// the inputs; read a `tool_use_result` (or a hook's `tool_response`) of that tool as its output.",
    'export {};',
    '',
    ...declarations,
    '',
    '/** The input of any built-in tool above. */',
    `export type ToolInputSchemas = ${names.join(' | ')};`,
    '',
    ...results.declarations,
    ...(results.names.length === 0
      ? []
      : [
          '',
          '/** The result of any built-in tool above. */',
          `export type ToolOutputSchemas = ${results.names.join(' | ')};`,
          '',
        ]),
  ].join('\n');
  const options = await prettier.resolveConfig(OUTPUT_PATH);
  return prettier.format(text, { ...options, filepath: OUTPUT_PATH });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fixture = JSON.parse(readFileSync(FIXTURE_PATH, 'utf8')) as Fixture;
  writeFileSync(OUTPUT_PATH, await generateSdkTools(fixture, readOutputs()));
  console.log(`wrote ${OUTPUT_PATH}`);
}
