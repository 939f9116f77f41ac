// What a push carries, before encryption. The push service only relays ciphertext (RFC 8291), but the
// device shows the title and body on its lock screen, so they hold only what the device chose (`show`,
// push-subscriptions.ts): by default the tool's name and a short preview of its input, made safe as the
// terminal shows it. The action URLs are relative, so the service worker posts them to the origin it was
// installed from; each carries a token for that one approval, that one action and this one device.
// Approve is offered only when the whole preview fits in the notification: a person approves only what
// they saw. The "resolved" push has the same tag, so the device replaces the prompt with it.
import { showBlock, terminalSafe } from '../../view/visible-text.js';
import type { WaitingApproval } from './approval-feed.js';
import { previewSource, type ResolvedNotice } from './notice.js';
import type { PushShow } from './push-subscriptions.js';

export const PUSH_PREVIEW_MAX_CHARS = 200;
export const PUSH_PREVIEW_MAX_LINES = 4;
/** Push services accept about 4 KB of ciphertext; the payload stays well under it. */
export const PUSH_PAYLOAD_MAX_BYTES = 3000;

export interface PushPayload {
  v: 1;
  type: 'approval.requested' | 'approval.resolved';
  /** One per approval: the resolved push replaces the requested one on the device. */
  tag: string;
  approvalId: string;
  threadId: string;
  title: string;
  body: string;
  /** Relative URLs (`/hooks/approvals/:id/allow?token=…`), POST; absent when not offered. */
  actions: { approve?: string; deny?: string };
  /** When the action tokens stop working. */
  expiresAt?: string;
}

export function pushTag(approvalId: string): string {
  return `warden-approval-${approvalId}`;
}

export function requestedPayload(
  approval: WaitingApproval,
  show: PushShow,
  links: { allow: string; deny: string; expiresAt: number },
): PushPayload {
  const tool = terminalSafe(approval.toolName).slice(0, 60);
  const base = {
    v: 1 as const,
    type: 'approval.requested' as const,
    tag: pushTag(approval.id),
    approvalId: approval.id,
    threadId: approval.threadId,
    expiresAt: new Date(links.expiresAt).toISOString(),
  };
  if (show === 'none')
    return {
      ...base,
      title: 'Warden: an approval is waiting',
      body: 'Open Warden to answer it.',
      actions: {},
    };
  if (show === 'tool')
    return {
      ...base,
      title: `${tool} wants approval`,
      body: 'Open Warden to see what it wants to do.',
      actions: { deny: links.deny },
    };
  const raw = previewSource(approval.toolName, approval.input);
  const shown = showBlock(raw, PUSH_PREVIEW_MAX_CHARS, PUSH_PREVIEW_MAX_LINES);
  const whole = raw.length <= PUSH_PREVIEW_MAX_CHARS && shown.lines.length <= PUSH_PREVIEW_MAX_LINES;
  const cut = shown.facts.filter((fact) => !/^\d+ lines$/.test(fact));
  const body = `${shown.lines.join('\n')}${whole ? '' : `\n(${cut.join('; ')} — open Warden to approve)`}`;
  const payload: PushPayload = {
    ...base,
    title: `${tool} wants approval`,
    body,
    actions: whole ? { approve: links.allow, deny: links.deny } : { deny: links.deny },
  };
  return fit(payload);
}

/** The prompt again, shortly before its deadline, saying what happens then (same tag: it replaces). */
export function reminderPayload(
  approval: WaitingApproval,
  show: PushShow,
  links: { allow: string; deny: string; expiresAt: number },
): PushPayload {
  const payload = requestedPayload(approval, show, links);
  const deadline = approval.deadline;
  // A route's reminder, with no deadline to count down to.
  if (deadline === null) return fit({ ...payload, title: `Still waiting: ${payload.title}` });
  const left = Date.parse(deadline.at) - Date.now();
  const when = left < 60_000 ? 'in under a minute' : `in ${Math.round(left / 60_000)} min`;
  const then = deadline.behavior === 'allow' ? 'allowed' : 'denied';
  return fit({
    ...payload,
    title: `${payload.title} — ${then} ${when}`,
    body: `${payload.body}\n(unanswered, it will be ${then} by default)`,
  });
}

export function resolvedPayload(notice: ResolvedNotice): PushPayload {
  const tool = terminalSafe(notice.approval.toolName).slice(0, 60);
  const by = notice.by === null ? '' : ` by ${notice.by}`;
  return {
    v: 1,
    type: 'approval.resolved',
    tag: pushTag(notice.approval.id),
    approvalId: notice.approval.id,
    threadId: notice.approval.threadId,
    title: 'Answered elsewhere',
    body: `${tool}: ${notice.outcome}${by}`,
    actions: {},
  };
}

/** Markers can make a short preview long in bytes: past the bound, the body is cut and Approve withdrawn. */
function fit(payload: PushPayload): PushPayload {
  if (Buffer.byteLength(JSON.stringify(payload)) <= PUSH_PAYLOAD_MAX_BYTES) return payload;
  const { deny } = payload.actions;
  return {
    ...payload,
    body: `${payload.body.slice(0, 300)}…\n(cut — open Warden to approve)`,
    actions: deny === undefined ? {} : { deny },
  };
}
