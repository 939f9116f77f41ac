// How `warden inbox` shows one pending approval: its thread's title, the tool, what it acts on on one line
// and how long it has waited — every piece of agent text made safe for the terminal first (control and
// invisible characters as markers), so a title or a command cannot move the cursor or rewrite the list.
import { basename } from 'node:path';

import type { ApprovalItem, ThreadListItem } from '../server/api-schema.js';
import { terminalSafe } from '../view/visible-text.js';
import { describeTool, type Styles } from './transcript.js';

const TITLE_MAX = 60;

export interface InboxRow {
  readonly approval: ApprovalItem;
  /** `“Fix the login form” · Bash · subagent Inspect the host · waiting 2m` (`· external session ·` after the title for one) */
  context(): string;
  /** The list line: the context and what the tool acts on. */
  line(s: Styles): string;
  /** For `--json`: the record's fields a script needs, the title and the age. */
  readonly json: Record<string, unknown>;
}

export function inboxRows(
  approvals: readonly ApprovalItem[],
  threads: readonly ThreadListItem[],
  now = Date.now(),
): InboxRow[] {
  const titles = new Map(threads.map((thread) => [thread.id, thread.title]));
  // A session started outside Warden (a terminal, an IDE, claude -p) waits in its own terminal too.
  const external = new Set(threads.filter((thread) => thread.kind === 'external').map((thread) => thread.id));
  return [...approvals]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((approval) => {
      const given =
        (approval as { threadTitle?: string | null }).threadTitle ?? titles.get(approval.threadId);
      const title =
        given === null || given === undefined || given.trim() === '' ? basename(approval.cwd) : given;
      const waitedMs = Math.max(0, now - Date.parse(approval.createdAt));
      const context = (): string =>
        [
          `“${cut(title)}”`,
          external.has(approval.threadId) ? 'external session' : null,
          terminalSafe(approval.toolName),
          approval.subagentDescription === null ? null : `subagent ${cut(approval.subagentDescription)}`,
          `waiting ${age(waitedMs)}`,
        ]
          .filter((part) => part !== null)
          .join(' · ');
      return {
        approval,
        context,
        line: (s) =>
          `${s.bold(approval.id)}  ${context()}\n      ${describeTool(approval.toolName, approval.input)}`,
        json: {
          id: approval.id,
          threadId: approval.threadId,
          threadTitle: title,
          external: external.has(approval.threadId),
          subagentId: approval.subagentId,
          subagentDescription: approval.subagentDescription,
          toolName: approval.toolName,
          input: approval.input,
          cwd: approval.cwd,
          alwaysAllowRules: approval.alwaysAllowRules,
          createdAt: approval.createdAt,
          waitedSeconds: Math.floor(waitedMs / 1000),
        },
      };
    });
}

/** One line, safe, at most TITLE_MAX characters. */
function cut(text: string): string {
  const flat = terminalSafe(text, { fold: true }).replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > TITLE_MAX ? `${flat.slice(0, TITLE_MAX - 1)}…` : flat;
}

/** `45s`, `12m`, `3h`, `2d`. */
export function age(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
