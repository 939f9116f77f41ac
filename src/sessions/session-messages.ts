// getSessionMessages: the current conversation of a past session, oldest first. Context the CLI injected
// (isMeta entries, attachments, progress) is left out; system entries only when asked for.
import { currentChain } from './chain.js';
import { locateTranscript } from './locate.js';
import { defaultWarn, stringField, type TranscriptEntry } from './transcript.js';
import { checkOptions, page } from './validate.js';
import type { SDKMessageOrigin } from '../protocol/messages.js';
import type { GetSessionMessagesOptions, SessionMessage } from './types.js';

export async function getSessionMessages(
  sessionId: string,
  options: GetSessionMessagesOptions = {},
): Promise<SessionMessage[]> {
  checkOptions(options, ['dir', 'limit', 'offset', 'includeSystemMessages']);
  const transcript = await locateTranscript(sessionId, options.dir, options.onWarning ?? defaultWarn);
  if (transcript === undefined) return [];
  const includeSystem = options.includeSystemMessages === true;
  const messages = currentChain(transcript.entries)
    .filter((entry) => isVisible(entry, includeSystem))
    .map((entry) => toSessionMessage(entry, sessionId));
  return page(messages, options.offset, options.limit);
}

function isVisible(entry: TranscriptEntry, includeSystem: boolean): boolean {
  if (entry.type === 'system') return includeSystem;
  return (entry.type === 'user' || entry.type === 'assistant') && entry.isMeta !== true;
}

export function toSessionMessage(entry: TranscriptEntry, sessionId: string): SessionMessage {
  const message: SessionMessage = {
    type: entry.type as SessionMessage['type'],
    uuid: String(entry.uuid),
    session_id: stringField(entry, 'sessionId') ?? sessionId,
    message: entry.message,
    parent_tool_use_id: null,
    parent_agent_id: null,
  };
  // As the official SDK does: a compaction summary and a transcript-only entry are marked for pickers.
  if (entry.isCompactSummary === true) message.isCompactSummary = true;
  if (entry.isCompactSummary === true || entry.isVisibleInTranscriptOnly === true) message.is_meta = true;
  // Why the CLI started this turn itself (a background task reported), as on the live message.
  if (typeof entry.origin === 'object' && entry.origin !== null)
    message.origin = entry.origin as SDKMessageOrigin;
  const meta = toolResultMeta(entry);
  if (meta !== undefined) message.tool_result_meta = meta;
  const timestamp = stringField(entry, 'timestamp');
  if (timestamp !== undefined) message.timestamp = timestamp;
  return message;
}

/** Why a tool call did not run (denied, rejected, blocked), per tool result, as the official SDK reports it. */
function toolResultMeta(entry: TranscriptEntry): SessionMessage['tool_result_meta'] {
  const kind = stringField(entry, 'toolDenialKind');
  const content = (entry.message as { content?: unknown } | undefined)?.content;
  if (kind === undefined || !Array.isArray(content)) return undefined;
  const ids = (content as { type?: unknown; tool_use_id?: unknown }[])
    .filter((block) => block.type === 'tool_result' && typeof block.tool_use_id === 'string')
    .map((block) => ({ id: String(block.tool_use_id), non_execution_kind: kind }));
  return ids.length === 0 ? undefined : ids;
}
