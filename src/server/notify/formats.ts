// One notice, three wire formats, chosen per URL: `json` (the notice itself), `slack` (Slack-compatible
// `{ text, blocks }` for incoming webhooks) and `ntfy` (a plain-text body with `Title` and `Actions`
// headers, which ntfy turns into a push with Allow / Deny buttons that POST the links).
import type { Notice, RequestedNotice, ResolvedNotice } from './notice.js';

export const WEBHOOK_FORMATS = ['json', 'slack', 'ntfy'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export interface Rendered {
  body: string;
  headers: Record<string, string>;
}

export function render(format: WebhookFormat, notice: Notice): Rendered {
  switch (format) {
    case 'json':
      return { body: JSON.stringify(notice), headers: { 'content-type': 'application/json' } };
    case 'slack':
      return {
        body: JSON.stringify(
          notice.type === 'approval.requested' ? slackRequested(notice) : slackResolved(notice),
        ),
        headers: { 'content-type': 'application/json' },
      };
    case 'ntfy':
      return notice.type === 'approval.requested' ? ntfyRequested(notice) : ntfyResolved(notice);
  }
}

function slackRequested(notice: RequestedNotice): unknown {
  const { approval, actions } = notice;
  const heading = `Warden: ${approval.toolName} wants approval in ${approval.cwd}${reminderWords(notice)}`;
  const facts = approval.preview.facts.length === 0 ? '' : `(${approval.preview.facts.join('; ')})\n`;
  const preview = approval.preview.text.includes('```')
    ? slackEscape(approval.preview.text)
    : `\`\`\`${slackEscape(approval.preview.text)}\`\`\``;
  return {
    text: slackEscape(heading),
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `*${slackEscape(heading)}*\n${slackEscape(facts)}${preview}` },
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text:
              `Single-use links (POST), until ${notice.linksExpireAt}: ` +
              `allow ${slackEscape(actions.allow.url)} · deny ${slackEscape(actions.deny.url)}`,
          },
        ],
      },
    ],
  };
}

function slackResolved(notice: ResolvedNotice): unknown {
  const text = slackEscape(`Warden: ${resolvedSentence(notice)}`);
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

function ntfyRequested(notice: RequestedNotice): Rendered {
  const { approval, actions } = notice;
  const facts = approval.preview.facts.length === 0 ? '' : `(${approval.preview.facts.join('; ')})\n`;
  return {
    body: `${facts}${approval.preview.text}\n\nin ${approval.cwd}`,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      title: headerSafe(`Warden: ${approval.toolName} wants approval${reminderWords(notice)}`),
      tags: 'warning',
      actions: [
        `http, Allow, ${actions.allow.url}, method=POST, clear=true`,
        `http, Deny, ${actions.deny.url}, method=POST, clear=true`,
      ].join('; '),
    },
  };
}

/** On a reminder: what happens when nobody answers, and when (the time as the receiver's clock reads it). */
function reminderWords(notice: RequestedNotice): string {
  const route = notice.route;
  const routeWords =
    route === undefined
      ? ''
      : route.step === 'reminded'
        ? ` (still unanswered: reminded by route ${route.name})`
        : ` (escalated by route ${route.name}: you may answer it now)`;
  if (notice.reminder === undefined) return routeWords;
  const then = notice.reminder.behavior === 'allow' ? 'allowed' : 'denied';
  return ` (reminder: ${then} by default at ${notice.reminder.deadlineAt})`;
}

function ntfyResolved(notice: ResolvedNotice): Rendered {
  return {
    body: resolvedSentence(notice),
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      title: headerSafe(`Warden: ${notice.approval.toolName} ${notice.outcome}`),
      tags: 'white_check_mark',
    },
  };
}

function resolvedSentence(notice: ResolvedNotice): string {
  const by = notice.by === null ? '' : ` by ${notice.by}`;
  const reason = notice.reason === null ? '' : ` (${notice.reason})`;
  return `approval ${notice.approval.id} for ${notice.approval.toolName} was ${notice.outcome}${by}${reason}; answered elsewhere`;
}

/** Slack's mrkdwn control characters: `&`, `<`, `>` (so agent text cannot make links or mentions). */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Header values must be printable ASCII: anything else becomes `?`. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}
