// Captures the input schema of every built-in tool of the real Claude Code CLI: the CLI sends each tool's
// `input_schema` to the model on its first request, so a session answered by the testkit's mock model
// shows them all. Several sessions run, each with the settings that make the CLI offer more of its tools
// (no deferred tool search, the task tools, an MCP server for the resource tools, a permission prompt for
// the question and plan tools); their tools are merged by name. Writes test/fixtures/tool-schemas.json,
// from which scripts/generate-sdk-tools.ts writes src/sdk-tools.ts.
//
//   node --import tsx scripts/capture-tool-schemas.ts
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { query, type Options } from '../src/index.js';
import { createScratch, offlineClaudeEnv, startMockModel } from '../src/testing/index.js';

const FIXTURE = new URL('../test/fixtures/tool-schemas.json', import.meta.url);
const MCP_SERVER = new URL('../test/fixtures/mcp-resource-server.mjs', import.meta.url);

interface Variant {
  env: Record<string, string>;
  options: Partial<Options>;
}

const VARIANTS: Variant[] = [
  { env: { ENABLE_TOOL_SEARCH: 'false' }, options: {} },
  {
    env: { ENABLE_TOOL_SEARCH: 'false', CLAUDE_CODE_ENABLE_TASKS: '1' },
    options: { canUseTool: (_name, input) => Promise.resolve({ behavior: 'allow', updatedInput: input }) },
  },
  {
    env: { ENABLE_TOOL_SEARCH: 'false', CLAUDE_CODE_ENABLE_TASKS: '0' },
    options: {
      canUseTool: (_name, input) => Promise.resolve({ behavior: 'allow', updatedInput: input }),
      mcpServers: { resources: { command: process.execPath, args: [MCP_SERVER.pathname] } },
    },
  },
  // Glob and Grep, which the native build replaces with search commands embedded in its Bash except under
  // the `local-agent` entry point, and the TodoWrite tool, which the task tools replace.
  {
    env: {
      ENABLE_TOOL_SEARCH: 'false',
      CLAUDE_CODE_ENTRYPOINT: 'local-agent',
      CLAUDE_CODE_ENABLE_TASKS: '0',
      CLAUDE_CODE_ENABLE_TODO_TOOLS: '1',
    },
    options: {},
  },
  // The task tools (TaskCreate, TaskGet, TaskList, TaskUpdate): tasks on, and the to-do tools asked for.
  { env: { ENABLE_TOOL_SEARCH: 'false', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' }, options: {} },
];

/** As the CLI reports it in `system/init`. */
let version = 'unknown';

async function toolsOf(variant: Variant): Promise<Map<string, unknown>> {
  const scratch = createScratch('warden-tool-schemas-');
  const logDir = join(scratch.dir, 'log');
  const mock = await startMockModel({ logDir });
  try {
    const env = offlineClaudeEnv({
      mockUrl: mock.url,
      home: scratch.home,
      tmpdir: scratch.tmpdir,
      extra: variant.env,
    });
    const q = query({ prompt: 'hello', options: { cwd: scratch.cwd, env, ...variant.options } });
    for await (const message of q) {
      if (message.type === 'system' && message.subtype === 'init') version = message.claude_code_version;
      if (message.type === 'result') break;
    }
    q.close();
    await q.closed;
  } finally {
    await mock.close();
  }
  const tools = new Map<string, unknown>();
  for (const file of readdirSync(join(logDir, 'bodies')).sort()) {
    const { body } = JSON.parse(readFileSync(join(logDir, 'bodies', file), 'utf8')) as {
      body: { tools?: { name: string; input_schema?: unknown }[] };
    };
    for (const tool of body.tools ?? [])
      if (tool.input_schema !== undefined && !tools.has(tool.name)) tools.set(tool.name, tool.input_schema);
  }
  scratch.cleanup();
  return tools;
}

/**
 * The schema without its prose (`description`, `$schema`): the types need the shape only, and the prose is
 * the CLI's prompt text, which changes every release.
 */
function shapeOnly(schema: unknown, underProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => shapeOnly(item));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!underProperties && (key === 'description' || key === '$schema')) continue;
    out[key] = shapeOnly(value, !underProperties && key === 'properties');
  }
  return out;
}

const merged = new Map<string, unknown>();
for (const variant of VARIANTS)
  for (const [name, schema] of await toolsOf(variant))
    if (!merged.has(name) && !name.startsWith('mcp__')) merged.set(name, shapeOnly(schema));

const sorted = Object.fromEntries([...merged].sort(([a], [b]) => a.localeCompare(b)));
const fixture = { claudeCodeVersion: version, tools: sorted };
writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
console.log(`${merged.size} tools: ${Object.keys(sorted).join(' ')}`);
