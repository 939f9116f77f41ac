// The first thing a person typed in a session, for titles and pickers. The CLI also writes user entries
// that no one typed — tool results, injected context (isMeta), compaction summaries, interrupt notes,
// command output — and those are skipped. A slash command counts only when nothing else was typed.
import type { TranscriptEntry } from './transcript.js';

const MAX_CHARS = 200;
const COMMAND_NAME = /<command-name>(.*?)<\/command-name>/s;
const BASH_INPUT = /^<bash-input>(.*?)<\/bash-input>/s;
/** Text wrapped in a tag (`<local-command-stdout>`, `<task-notification>`, …) came from the CLI. */
const TAGGED = /^<[a-zA-Z][\w-]*[\s>]/;
const INTERRUPTED = '[Request interrupted by user';

export function firstPrompt(entries: readonly TranscriptEntry[]): string | undefined {
  let command: string | undefined;
  for (const entry of entries) {
    if (entry.type !== 'user' || entry.isMeta === true || entry.isCompactSummary === true) continue;
    const text = typedText(entry.message);
    if (text === undefined) continue;
    const bash = BASH_INPUT.exec(text);
    if (bash !== null) return clip(`! ${bash[1]!.trim()}`);
    const name = COMMAND_NAME.exec(text);
    if (name !== null) {
      command ??= name[1]!.trim();
      continue;
    }
    if (TAGGED.test(text) || text.startsWith(INTERRUPTED)) continue;
    return clip(text);
  }
  return command === undefined || command === '' ? undefined : clip(command);
}

/** The flattened text of a user message, or undefined when it carries tool results or no text. */
function typedText(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const content = (message as { content?: unknown }).content;
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const blocks = content as unknown[];
    if (blocks.some((block) => blockType(block) === 'tool_result')) return undefined;
    const first = blocks.find((block) => blockType(block) === 'text') as { text?: unknown } | undefined;
    text = typeof first?.text === 'string' ? first.text : undefined;
  }
  const flat = text?.replace(/\r?\n/g, ' ').trim();
  return flat === undefined || flat === '' ? undefined : flat;
}

function blockType(block: unknown): unknown {
  return typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
}

export function clip(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}…` : text;
}
