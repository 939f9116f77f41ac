// Captures what the real Claude Code CLI returns from its built-in tools: a session answered by the
// testkit's mock model calls each tool it can run offline, and the CLI reports each result's structured
// form as `tool_use_result` on the user message that carries it. Writes test/fixtures/tool-outputs.json
// (tool name → the results seen), which test/types/recorded-outputs.test.ts checks against the `*Output`
// types of `./sdk-tools` (the official declarations): what the CLI returns must be a value of them.
//
//   node --import tsx scripts/capture-tool-outputs.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { query, type SDKMessage } from '../src/index.js';
import { createScratch, offlineClaudeEnv, scenario, startMockModel } from '../src/testing/index.js';

const FIXTURE = new URL('../test/fixtures/tool-outputs.json', import.meta.url);
const MCP_SERVER = new URL('../test/fixtures/mcp-resource-server.mjs', import.meta.url);

const scratch = createScratch('warden-tool-outputs-');
const file = join(scratch.cwd, 'notes.txt');
const notebook = join(scratch.cwd, 'notes.ipynb');
const calls: [string, Record<string, unknown>][] = [
  [
    'Write',
    {
      file_path: notebook,
      content: JSON.stringify({
        cells: [
          {
            cell_type: 'code',
            id: 'c1',
            metadata: {},
            source: ['1 + 1'],
            outputs: [],
            execution_count: null,
          },
        ],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 5,
      }),
    },
  ],
  ['NotebookEdit', { notebook_path: notebook, cell_id: 'c1', new_source: '2 + 2' }],
  ['CronCreate', { cron: '0 9 * * 1', prompt: 'Check the notes', recurring: true }],
  ['CronList', {}],
  ['ListMcpResourcesTool', {}],
  ['ReadMcpResourceTool', { server: 'resources', uri: 'memo://readme' }],
  ['EnterPlanMode', {}],
  ['ExitPlanMode', {}],
  ['Write', { file_path: file, content: 'alpha\nbeta\n' }],
  ['Write', { file_path: file, content: 'alpha\ngamma\n' }],
  ['Read', { file_path: file }],
  ['Edit', { file_path: file, old_string: 'gamma', new_string: 'delta' }],
  ['Glob', { pattern: '*.txt' }],
  ['Glob', { pattern: '*.none' }],
  ['Grep', { pattern: 'alpha' }],
  ['Grep', { pattern: 'alpha', output_mode: 'content', '-n': true }],
  ['Grep', { pattern: 'alpha', output_mode: 'count' }],
  ['Bash', { command: 'echo out; echo err >&2', description: 'Print to both streams' }],
  ['Bash', { command: 'true', description: 'Print nothing' }],
  [
    'TodoWrite',
    { todos: [{ content: 'Check the notes', status: 'in_progress', activeForm: 'Checking the notes' }] },
  ],
  [
    'TodoWrite',
    {
      todos: [
        { content: 'Check the notes', status: 'completed', activeForm: 'Checking the notes' },
        { content: 'Tidy up', status: 'pending', activeForm: 'Tidying up' },
      ],
    },
  ],
];
/** The task tools replace TodoWrite, so they run in a session of their own (as in capture-tool-schemas.ts). */
const taskCalls: [string, Record<string, unknown>][] = [
  [
    'TaskCreate',
    { subject: 'Check the notes', description: 'Read notes.txt', activeForm: 'Checking the notes' },
  ],
  ['TaskList', {}],
  ['TaskGet', { taskId: '1' }],
  ['TaskUpdate', { taskId: '1', status: 'completed' }],
];
const sessions: { calls: typeof calls; env: Record<string, string> }[] = [
  {
    calls,
    // The same settings as capture-tool-schemas.ts: Glob, Grep and TodoWrite are offered.
    env: {
      ENABLE_TOOL_SEARCH: 'false',
      CLAUDE_CODE_ENTRYPOINT: 'local-agent',
      CLAUDE_CODE_ENABLE_TASKS: '0',
      CLAUDE_CODE_ENABLE_TODO_TOOLS: '1',
    },
  },
  { calls: taskCalls, env: { ENABLE_TOOL_SEARCH: 'false', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } },
];
let version = 'unknown';
const results = new Map<string, unknown[]>();
for (const session of sessions) await run(session.calls, session.env);

async function run(steps: typeof calls, extra: Record<string, string>): Promise<void> {
  let builder = scenario().on();
  for (const [name, input] of steps) builder = builder.callTool(name, input);
  const mock = await startMockModel({ script: builder.thenAnswer('done').build() });
  try {
    const env = offlineClaudeEnv({ mockUrl: mock.url, home: scratch.home, tmpdir: scratch.tmpdir, extra });
    const names = new Map<string, string>();
    const q = query({
      prompt: 'use the tools',
      options: {
        cwd: scratch.cwd,
        env,
        canUseTool: (_name, input) => Promise.resolve({ behavior: 'allow', updatedInput: input }),
        // For the MCP resource tools.
        mcpServers: { resources: { command: process.execPath, args: [MCP_SERVER.pathname] } },
      },
    });
    for await (const message of q as AsyncIterable<SDKMessage & Record<string, unknown>>) {
      if (message.type === 'system' && message.subtype === 'init')
        version = String(message.claude_code_version);
      const content = (message as { message?: { content?: unknown } }).message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as Record<string, unknown>[]) {
        if (block.type === 'tool_use') names.set(String(block.id), String(block.name));
        if (block.type === 'tool_result' && message.tool_use_result !== undefined) {
          const name = names.get(String(block.tool_use_id)) ?? 'unknown';
          results.set(name, [...(results.get(name) ?? []), message.tool_use_result]);
        }
      }
      if (message.type === 'result') break;
    }
    q.close();
    await q.closed;
  } finally {
    await mock.close();
  }
}
scratch.cleanup();
// Paths and times of this run say nothing about the shape: replaced, so the fixture is stable.
const stable = JSON.parse(
  JSON.stringify(Object.fromEntries([...results].sort(([a], [b]) => a.localeCompare(b)))).replaceAll(
    scratch.dir,
    '/scratch',
  ),
  (key, value: unknown) => (typeof value === 'number' && /ms|Ms|duration/i.test(key) ? 1 : value),
) as unknown;
writeFileSync(FIXTURE, `${JSON.stringify({ claudeCodeVersion: version, tools: stable }, null, 2)}\n`);
console.log(`${results.size} tools: ${[...results.keys()].join(' ')}`);
