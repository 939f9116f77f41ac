// listSubagents and getSubagentMessages: the transcripts the CLI keeps for a session's subagents, at
// <project>/<sessionId>/subagents/[<nested>/]agent-<agentId>.jsonl, beside a <same>.meta.json that names
// the tool call that started the agent.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';

import { currentChain } from './chain.js';
import { locateTranscript } from './locate.js';
import { isSessionId } from './paths.js';
import { toSessionMessage } from './session-messages.js';
import { defaultWarn, readTranscript, type Warn } from './transcript.js';
import { checkOptions, page } from './validate.js';
import type { SessionMessage } from './types.js';

export type ListSubagentsOptions = { dir?: string; onWarning?: Warn };
export type GetSubagentMessagesOptions = { dir?: string; limit?: number; offset?: number; onWarning?: Warn };

type SubagentFile = { agentId: string; filePath: string };

/** The ids of a session's subagents, in the order the directory lists them; [] when there are none. */
export async function listSubagents(
  sessionId: string,
  options: ListSubagentsOptions = {},
): Promise<string[]> {
  checkOptions(options, ['dir']);
  return (await subagentFiles(sessionId, options)).map((file) => file.agentId);
}

/** One subagent's conversation, oldest first; [] when the session or the agent is unknown. */
export async function getSubagentMessages(
  sessionId: string,
  agentId: string,
  options: GetSubagentMessagesOptions = {},
): Promise<SessionMessage[]> {
  checkOptions(options, ['dir', 'limit', 'offset']);
  if (typeof agentId !== 'string' || agentId === '') return [];
  const file = (await subagentFiles(sessionId, options)).find((candidate) => candidate.agentId === agentId);
  if (file === undefined) return [];
  const transcript = await readTranscript(file.filePath, options.onWarning ?? defaultWarn);
  if (transcript === undefined) return [];
  const meta = await sidecar(file.filePath);
  // Every entry of an agent's own file is a sidechain of the session; within the file it is the chain.
  const entries = transcript.entries.map((entry) => ({ ...entry, isSidechain: false }));
  const messages = currentChain(entries)
    .filter((entry) => (entry.type === 'user' || entry.type === 'assistant') && entry.isMeta !== true)
    .map((entry) => {
      const message = toSessionMessage(entry, sessionId);
      message.parent_tool_use_id = meta.toolUseId ?? null;
      if (meta.parentAgentId !== undefined) message.parent_agent_id = meta.parentAgentId;
      return message;
    });
  return page(messages, options.offset, options.limit);
}

async function subagentFiles(
  sessionId: string,
  options: { dir?: string; onWarning?: Warn },
): Promise<SubagentFile[]> {
  if (!isSessionId(sessionId)) return [];
  const transcript = await locateTranscript(sessionId, options.dir, options.onWarning ?? defaultWarn);
  if (transcript === undefined) return [];
  const root = join(transcript.path.replace(/\.jsonl$/, ''), 'subagents');
  const found: SubagentFile[] = [];
  await walk(root, found);
  return found;
}

async function walk(dir: string, found: SubagentFile[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.isFile() && entry.name.startsWith('agent-') && entry.name.endsWith('.jsonl'))
      found.push({
        agentId: entry.name.slice('agent-'.length, -'.jsonl'.length),
        filePath: join(dir, entry.name),
      });
    else if (entry.isDirectory()) await walk(join(dir, entry.name), found);
  }
}

/** The agent's sidecar: the tool call that started it and its parent agent, when recorded. */
async function sidecar(filePath: string): Promise<{ toolUseId?: string; parentAgentId?: string }> {
  try {
    const meta = JSON.parse(await readFile(filePath.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as unknown;
    if (typeof meta !== 'object' || meta === null) return {};
    const { toolUseId, parentAgentId } = meta as Record<string, unknown>;
    return {
      ...(typeof toolUseId === 'string' ? { toolUseId } : {}),
      ...(typeof parentAgentId === 'string' ? { parentAgentId } : {}),
    };
  } catch {
    return {};
  }
}
