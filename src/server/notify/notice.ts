// What a notification says, before any format: an approval that waits (with its action links), or one that
// was settled so receivers can clear the prompt. Agent text is shown as the terminal shows it
// (src/view/visible-text.js): control and invisible characters as markers, cut with the cut said up front.
import { showBlock, terminalSafe } from '../../view/visible-text.js';
import type { ApprovalRecord } from '../../supervisor/index.js';

export const PREVIEW_MAX_CHARS = 1000;
export const PREVIEW_MAX_LINES = 20;

export interface RequestedNotice {
  type: 'approval.requested';
  approval: {
    id: string;
    threadId: string;
    subagentId: string | null;
    toolName: string;
    cwd: string;
    createdAt: string;
    /** The input as a person should read it, made safe; `facts` say what was cut. */
    preview: { text: string; facts: string[] };
  };
  /** Single-use links, POST only; each is a capability for that one decision. */
  actions: { allow: { method: 'POST'; url: string }; deny: { method: 'POST'; url: string } };
  linksExpireAt: string;
  /** Present on a reminder: the approval still waits, and at `deadlineAt` it is answered `behavior`. */
  reminder?: { deadlineAt: string; behavior: 'allow' | 'deny' };
  /**
   * Present when a step of the approval's route sent it: `reminded`, it still waits for those who may
   * answer; `escalated`, the receiver's decider may answer it now too.
   */
  route?: { name: string; step: 'reminded' | 'escalated' };
}

export type Outcome = 'allowed' | 'denied' | 'cancelled' | 'expired';

export interface ResolvedNotice {
  type: 'approval.resolved';
  approval: { id: string; threadId: string; toolName: string };
  outcome: Outcome;
  /** Who decided (`user`, `policy`, `webhook`), or null for a cancellation or expiry. */
  by: string | null;
  /** Why it was cancelled or expired. */
  reason: string | null;
  at: string;
}

export type Notice = RequestedNotice | ResolvedNotice;

/** The text a person judges: the command for Bash, the path for file tools, else the input as JSON. */
export function inputPreview(
  toolName: string,
  input: Record<string, unknown>,
): { text: string; facts: string[] } {
  const shown = showBlock(previewSource(toolName, input), PREVIEW_MAX_CHARS, PREVIEW_MAX_LINES);
  return { text: shown.lines.join('\n'), facts: shown.facts };
}

/** The raw text a preview is made from (not yet safe to show). */
export function previewSource(toolName: string, input: Record<string, unknown>): string {
  return toolName === 'Bash' && typeof input.command === 'string'
    ? input.command
    : typeof input.file_path === 'string' && Object.keys(input).length === 1
      ? input.file_path
      : JSON.stringify(input, null, 2);
}

export function requestedNotice(
  approval: Pick<ApprovalRecord, 'id' | 'threadId' | 'subagentId' | 'toolName' | 'input' | 'createdAt'>,
  cwd: string,
  links: { allow: string; deny: string; expiresAt: number },
): RequestedNotice {
  return {
    type: 'approval.requested',
    approval: {
      id: approval.id,
      threadId: approval.threadId,
      subagentId: approval.subagentId,
      toolName: terminalSafe(approval.toolName),
      cwd: terminalSafe(cwd),
      createdAt: approval.createdAt,
      preview: inputPreview(approval.toolName, approval.input),
    },
    actions: { allow: { method: 'POST', url: links.allow }, deny: { method: 'POST', url: links.deny } },
    linksExpireAt: new Date(links.expiresAt).toISOString(),
  };
}
