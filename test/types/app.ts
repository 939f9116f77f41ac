// A small application written against the official Agent SDK's types, as an application would write
// it. test/types.test.ts typechecks it twice: with the import below resolved to the official package
// (tsconfig.json: proof that this is valid official code) and resolved to Warden (tsconfig.warden.json:
// proof that the same code compiles against Warden unchanged). It is never run.
//
// It is written the way applications write such code, not in this repository's style: async callbacks
// without await, a switch with a default instead of every case.
/* eslint-disable @typescript-eslint/require-await, @typescript-eslint/switch-exhaustiveness-check */
import {
  AbortError,
  createSdkMcpServer,
  deleteSession,
  forkSession,
  getSessionInfo,
  getSessionMessages,
  listSessions,
  query,
  renameSession,
  startup,
  tagSession,
  tool,
  type AccountInfo,
  type CanUseTool,
  type HookCallback,
  type HookEvent,
  type HookCallbackMatcher,
  type HookJSONOutput,
  type McpServerConfig,
  type McpServerStatus,
  type ModelInfo,
  type Options,
  type PermissionMode,
  type PermissionResult,
  type PermissionUpdate,
  type Query,
  type SDKAssistantMessage,
  type SDKMessage,
  type SDKPartialAssistantMessage,
  type SDKResultMessage,
  type SDKSessionInfo,
  type SDKSystemMessage,
  type SDKUserMessage,
  type SessionMessage,
  type SlashCommand,
  type WarmQuery,
} from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';

// --- permissions ----------------------------------------------------------------------------------

const alwaysAllowed = new Set(['Read', 'Glob', 'Grep']);

const canUseTool: CanUseTool = async (toolName, input, { signal, suggestions, toolUseID, agentID }) => {
  if (signal.aborted) return { behavior: 'deny', message: 'aborted', interrupt: true };
  if (alwaysAllowed.has(toolName)) return { behavior: 'allow', updatedInput: input };
  const remember: PermissionUpdate[] = (suggestions ?? []).filter((s) => s.type === 'addRules');
  const where = agentID === undefined ? 'main agent' : `subagent ${agentID}`;
  console.log(`asking about ${toolName} (${toolUseID}) from the ${where}`);
  const decision: PermissionResult =
    toolName === 'Bash' && typeof input.command === 'string' && input.command.startsWith('rm ')
      ? { behavior: 'deny', message: 'No deleting files.' }
      : { behavior: 'allow', updatedInput: input, updatedPermissions: remember };
  return decision;
};

// --- hooks ----------------------------------------------------------------------------------------

const auditBash: HookCallback = async (input, toolUseID, { signal }) => {
  if (signal.aborted || input.hook_event_name !== 'PreToolUse') return {};
  const name: string = input.tool_name;
  const command = (input.tool_input as { command?: string }).command ?? '';
  console.log(`[${input.session_id}] ${name} ${toolUseID ?? '-'}: ${command}`);
  if (command.includes('curl ')) {
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'No network from the shell.',
      },
    };
  }
  return { continue: true };
};

const logPrompt: HookCallback = async (input) => {
  if (input.hook_event_name === 'UserPromptSubmit') console.log(`prompt: ${input.prompt.slice(0, 40)}`);
  const out: HookJSONOutput = {};
  return out;
};

const timeTools: HookCallback = async (input) => {
  if (input.hook_event_name === 'PostToolUse')
    console.log(`${input.tool_name} took ${input.duration_ms ?? '?'} ms`, input.tool_response);
  if (input.hook_event_name === 'SubagentStop') console.log(`subagent ${input.agent_id} stopped`);
  return { async: true, asyncTimeout: 1000 };
};

const hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {
  PreToolUse: [{ matcher: 'Bash', hooks: [auditBash], timeout: 30 }],
  PostToolUse: [{ hooks: [timeTools] }],
  SubagentStop: [{ hooks: [timeTools] }],
  UserPromptSubmit: [{ hooks: [logPrompt] }],
};

// --- an in-process MCP server ---------------------------------------------------------------------

const calculator = createSdkMcpServer({
  name: 'calc',
  version: '1.0.0',
  tools: [
    tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    })),
    tool('shout', 'Upper-case a text', { text: z.string() }, async (args) => ({
      content: [{ type: 'text', text: args.text.toUpperCase() }],
    })),
  ],
});

const mcpServers: Record<string, McpServerConfig> = {
  calc: calculator,
  files: { type: 'stdio', command: 'node', args: ['files-server.js'] },
  docs: { type: 'http', url: 'http://127.0.0.1:9999/mcp' },
};

// --- one conversation -----------------------------------------------------------------------------

function describe(message: SDKMessage): string {
  switch (message.type) {
    case 'assistant': {
      const assistant: SDKAssistantMessage = message;
      const parts = assistant.message.content.map((block) => {
        if (block.type === 'text') return block.text;
        if (block.type === 'tool_use') return `[${block.name}]`;
        return `<${block.type}>`;
      });
      return `${assistant.parent_tool_use_id === null ? '' : '  '}assistant: ${parts.join(' ')}`;
    }
    case 'user': {
      const content = message.message.content;
      return `user: ${typeof content === 'string' ? content : `${content.length} blocks`}`;
    }
    case 'result': {
      const result: SDKResultMessage = message;
      const tokens = result.usage.input_tokens + result.usage.output_tokens;
      const models = Object.keys(result.modelUsage).join(',');
      if (result.subtype === 'success')
        return `done in ${result.num_turns} turns, ${tokens} tokens (${models}), $${result.total_cost_usd.toFixed(4)}: ${result.result}`;
      return `failed (${result.subtype}): ${result.errors.join('; ')}`;
    }
    case 'system': {
      if (message.subtype === 'init') {
        const init: SDKSystemMessage = message;
        return `session ${init.session_id} on ${init.model}, tools ${init.tools.join(',')}`;
      }
      if (message.subtype === 'task_notification') return `task ${message.task_id} ${message.status}`;
      if (message.subtype === 'compact_boundary') return `compacted (${message.compact_metadata.trigger})`;
      return `system/${message.subtype}`;
    }
    case 'stream_event': {
      const partial: SDKPartialAssistantMessage = message;
      const event = partial.event;
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') return event.delta.text;
      return '';
    }
    default:
      return message.type;
  }
}

export async function runTask(cwd: string, prompt: string): Promise<string | undefined> {
  const abortController = new AbortController();
  const options: Options = {
    cwd,
    abortController,
    canUseTool,
    hooks,
    mcpServers,
    allowedTools: ['mcp__calc__add'],
    disallowedTools: ['WebFetch'],
    agents: {
      reviewer: {
        description: 'Reviews a diff',
        prompt: 'You review diffs.',
        tools: ['Read', 'Grep'],
        model: 'sonnet',
      },
    },
    model: 'claude-opus-4-1',
    fallbackModel: 'claude-sonnet-4-5',
    additionalDirectories: ['/tmp'],
    maxBudgetUsd: 2,
    permissionMode: 'default',
    systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Be brief.' },
    settingSources: ['project'],
    includePartialMessages: true,
    maxTurns: 8,
    env: { ...process.env, CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' },
    stderr: (data) => process.stderr.write(data),
  };
  const q: Query = query({ prompt, options });

  const commands: SlashCommand[] = await q.supportedCommands();
  const models: ModelInfo[] = await q.supportedModels();
  const account: AccountInfo = await q.accountInfo();
  const init = await q.initializationResult();
  console.log(
    commands.map((c) => c.name),
    models[0]?.displayName,
    account.email,
    init.output_style,
  );
  const servers: McpServerStatus[] = await q.mcpServerStatus();
  for (const server of servers) console.log(server.name, server.status, server.serverInfo?.version);

  const mode: PermissionMode = 'acceptEdits';
  await q.setPermissionMode(mode);
  await q.setModel('claude-sonnet-4-5');

  let sessionId: string | undefined;
  try {
    for await (const message of q) {
      console.log(describe(message));
      if (message.type === 'system' && message.subtype === 'session_state_changed')
        console.log(`state: ${message.state}`);
      if (
        message.type === 'system' &&
        message.subtype === 'task_started' &&
        message.task_type === 'local_bash'
      )
        await q.stopTask(message.task_id);
      if (message.type === 'result') sessionId = message.session_id;
    }
  } catch (error) {
    if (error instanceof AbortError) return undefined;
    if (error instanceof Error && error.message.startsWith('Claude Code process exited with code'))
      console.error('the CLI died:', error.message);
    throw error;
  } finally {
    q.close();
  }
  return sessionId;
}

// --- streaming input, interrupt ------------------------------------------------------------------

async function* conversation(texts: string[]): AsyncGenerator<SDKUserMessage> {
  for (const text of texts)
    yield {
      type: 'user',
      message: { role: 'user', content: text },
      parent_tool_use_id: null,
      session_id: '',
    };
}

export async function chat(cwd: string): Promise<void> {
  const q = query({ prompt: conversation(['hello', 'and now?']), options: { cwd } });
  await q.streamInput(conversation(['one more thing']));
  for await (const message of q) {
    if (message.type === 'assistant' && message.message.content.length > 3) {
      const reply = await q.interrupt();
      console.log('still queued:', reply?.still_queued.length ?? 0);
    }
  }
}

// --- a warm start ---------------------------------------------------------------------------------

export async function warmThenAsk(cwd: string): Promise<void> {
  const warm: WarmQuery = await startup({ options: { cwd }, initializeTimeoutMs: 30_000 });
  const q = warm.query('What is in this directory?');
  for await (const message of q) if (message.type === 'result') console.log(message.subtype);
  warm.close();
}

// --- past sessions --------------------------------------------------------------------------------

export async function tidySessions(cwd: string): Promise<void> {
  const sessions: SDKSessionInfo[] = await listSessions({ dir: cwd, limit: 20, offset: 0 });
  for (const session of sessions) {
    const when = new Date(session.lastModified).toISOString();
    console.log(
      `${session.sessionId} ${when} ${session.customTitle ?? session.summary} ${session.gitBranch ?? ''}`,
    );
  }
  const newest = sessions[0];
  if (newest === undefined) return;
  const info = await getSessionInfo(newest.sessionId, { dir: cwd });
  console.log(info?.firstPrompt, info?.createdAt, info?.tag);
  const messages: SessionMessage[] = await getSessionMessages(newest.sessionId, {
    dir: cwd,
    limit: 50,
    offset: 0,
    includeSystemMessages: true,
  });
  for (const message of messages) console.log(message.type, message.uuid, message.parent_tool_use_id);
  const middle = messages[Math.floor(messages.length / 2)];
  const { sessionId: forkId } = await forkSession(newest.sessionId, {
    dir: cwd,
    ...(middle === undefined ? {} : { upToMessageId: middle.uuid }),
    title: 'Try another way',
  });
  await renameSession(forkId, 'Another way', { dir: cwd });
  await tagSession(forkId, 'experiment');
  await tagSession(forkId, null);
  await deleteSession(forkId);
  // A forked session resumes like any other.
  const resumed = query({ prompt: 'continue', options: { cwd, resume: forkId, forkSession: false } });
  for await (const message of resumed) if (message.type === 'result') break;
}
