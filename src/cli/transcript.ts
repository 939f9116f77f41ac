// What `warden run` prints while the agent works: one readable line (or a few) per event of the thread —
// the prompt, assistant text, tool calls and their results, permission outcomes, subagents (their lines
// carry the subagent's description), and how each turn ended. Pure formatting: no decisions here. Every
// piece of text that came from the agent, a tool or the CLI is made safe first (src/view/visible-text.js): an
// escape sequence in a command or a tool's output is shown, never obeyed by the terminal.
import type { StoredEvent } from '../store/event-types.js';
import type { GrantScope } from '../store/records.js';
import { lineCount, terminalSafe as safe } from '../view/visible-text.js';

export type Write = (text: string) => void;

const RESULT_LINES = 3;
/** Tools whose result is bookkeeping (the launch notice of a subagent): its first sentence is enough. */
const TERSE_RESULTS = new Set(['Agent', 'Task']);

export interface Styles {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

export function styles(enabled: boolean): Styles {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

const DESCRIBE_MAX = 160;

/**
 * `Bash: cat /etc/os-release`, `Read: /etc/hostname`: the argument a person decides on, on one line —
 * never the agent's description of the call. A line count and a cut are said before the text:
 * `Bash (61 lines): ls ⏎ ⟨59 blank lines⟩ ⏎ curl …`.
 */
export function describeTool(name: string, input: Record<string, unknown>): string {
  const keys = ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'query', 'prompt'];
  const key = keys.find((k) => typeof input[k] === 'string');
  const detail =
    personDetail(name, input) ?? (key === undefined ? JSON.stringify(input) : String(input[key]));
  const flat = flatten(detail);
  const facts = [
    lineCount(detail) > 1 ? `${lineCount(detail)} lines` : null,
    flat.length > DESCRIBE_MAX ? `cut at ${DESCRIBE_MAX} of ${flat.length} characters` : null,
  ].filter((fact) => fact !== null);
  const head = `${safe(name)}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`;
  // A call without arguments (EnterPlanMode, the model's ExitPlanMode) is its name alone.
  if (detail === '{}') return head;
  return `${head}: ${oneLine(detail, DESCRIBE_MAX)}`;
}

/** For the model's questions, the questions; for its plan, the plan's first line (not the input's JSON). */
function personDetail(name: string, input: Record<string, unknown>): string | undefined {
  if (name === 'AskUserQuestion' && Array.isArray(input.questions)) {
    const asked = input.questions.flatMap((q: unknown) =>
      typeof q === 'object' && q !== null && typeof (q as { question?: unknown }).question === 'string'
        ? [(q as { question: string }).question]
        : [],
    );
    return asked.length > 0 ? asked.join(' / ') : undefined;
  }
  if (name === 'ExitPlanMode' && typeof input.plan === 'string') {
    const first = input.plan.split('\n').find((line) => line.trim() !== '') ?? '';
    return `the plan “${first.replace(/^#+\s*/, '').trim()}”`;
  }
  return undefined;
}

/**
 * A subagent's launch notice without the bookkeeping the CLI writes for the model (the agent id, the
 * output file, and its note that the result is internal metadata not to be quoted): `Async agent
 * launched successfully.`
 */
export function launchNotice(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  const plain = first.replace(/\s*\([^()]*internal metadata[^()]*\)/gi, '').trim();
  return oneLine(plain === '' ? 'subagent launched' : plain, 120);
}

/** Safe, folded, and on one line: newlines as ⏎. */
function flatten(text: string): string {
  return safe(text, { fold: true }).replace(/\s*\n\s*/g, ' ⏎ ');
}

function oneLine(text: string, max: number): string {
  const flat = flatten(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const THROUGH: Record<string, string> = {
  web: 'in the browser',
  terminal: 'in a terminal',
  api: 'over the API',
  webhook: "through a notification's link",
};

/** Who settled an approval this terminal did not answer: ` (answered in the browser by owner)`. */
function answeredBy(by: string, decidedBy: { name: string; via: string } | undefined): string {
  if (by === 'policy') return ' (by the mode)';
  if (by === 'timeout') return ' (its deadline passed)';
  if (decidedBy !== undefined) {
    const through = THROUGH[decidedBy.via] ?? `through ${safe(decidedBy.via)}`;
    return ` (answered ${through} by ${oneLine(decidedBy.name, 40)})`;
  }
  return by === 'webhook' ? " (answered through a notification's link)" : ' (answered elsewhere)';
}

/** Where an "always allow" was kept, as the question's scope choices say it. */
const GRANT_SCOPE_WORDS: Record<GrantScope, string> = {
  session: 'for this CLI session',
  thread: 'for this thread (kept by Warden across restarts, until removed)',
  project:
    'for this project (written to its .claude/settings.local.json by the CLI; Warden cannot remove it)',
};

export class Transcript {
  readonly #out: Write;
  readonly #s: Styles;
  readonly #subagents = new Map<string, string>();
  readonly #toolNames = new Map<string, string>();
  /** Which subagent asked, so the outcome line is shown where the question was. */
  readonly #approvalAgents = new Map<string, string | null>();
  /** Announce each permission request; off when the question asked on the same terminal shows it. */
  readonly #announceApprovals: boolean;
  /** Whether this terminal answered the approval; a person's answer from anywhere else is named so. */
  answeredHere: (approvalId: string) => boolean = () => true;

  constructor(out: Write, s: Styles, options: { announceApprovals?: boolean } = {}) {
    this.#out = out;
    this.#s = s;
    this.#announceApprovals = options.announceApprovals ?? true;
  }

  /** The description a subagent was started with (its id when it has none). */
  subagentName(subagentId: string | null): string | null {
    if (subagentId === null) return null;
    return this.#subagents.get(subagentId) ?? subagentId;
  }

  onEvent(event: StoredEvent): void {
    const s = this.#s;
    switch (event.type) {
      case 'message.user':
        return this.#line(null, s.bold(`> ${safe(event.data.text)}`));
      case 'message.assistant':
        for (const block of event.data.blocks) {
          if (block.type === 'text' && block.text.trim() !== '')
            this.#line(event.data.agentId, safe(block.text));
          if (block.type === 'tool_use') {
            this.#toolNames.set(block.id, block.name);
            this.#line(event.data.agentId, s.cyan(`• ${describeTool(block.name, block.input)}`));
          }
        }
        return;
      case 'tool.result': {
        const terse = TERSE_RESULTS.has(this.#toolNames.get(event.data.toolUseId) ?? '');
        if (terse && !event.data.isError)
          return this.#line(event.data.agentId, s.dim(`  ↳ ${launchNotice(event.data.text)}`));
        return this.#result(event.data.agentId, event.data.text, event.data.isError, RESULT_LINES);
      }
      case 'approval.requested':
        this.#approvalAgents.set(event.data.approvalId, event.data.subagentId);
        if (!this.#announceApprovals) return;
        return this.#line(
          event.data.subagentId,
          s.yellow(`? permission needed: ${describeTool(event.data.toolName, event.data.input)}`),
        );
      case 'approval.decided': {
        const { behavior, by, message } = event.data;
        const here = by === 'user' && this.answeredHere(event.data.approvalId);
        const how = here ? '' : answeredBy(by, event.data.decidedBy);
        const agent = this.#approvalAgents.get(event.data.approvalId) ?? null;
        const reason = message === null || message === '' ? '' : `: ${oneLine(message, 200)}`;
        if (behavior === 'deny') return this.#line(agent, s.red(`  ✗ denied${how}${reason}`));
        // How long "always" holds is said by the grant that follows (thread.rules_granted).
        const allowed = behavior === 'allow_always' ? 'always allowed' : 'allowed';
        return this.#line(agent, s.green(`  ✓ ${allowed}${how}`));
      }
      case 'approval.endorsed': {
        const agent = this.#approvalAgents.get(event.data.approvalId) ?? null;
        const by = safe(event.data.decidedBy.name);
        return this.#line(agent, s.yellow(`  ½ allowed by ${by}, 1 of 2: a second person must allow it`));
      }
      case 'thread.rules_granted': {
        if (event.data.approvalId === null) return;
        const agent = this.#approvalAgents.get(event.data.approvalId) ?? null;
        const rules = event.data.rules.map((rule) => safe(rule)).join(', ');
        return this.#line(agent, s.dim(`    ${GRANT_SCOPE_WORDS[event.data.scope]}: ${rules}`));
      }
      case 'approval.cancelled':
      case 'approval.expired': {
        const agent = this.#approvalAgents.get(event.data.approvalId) ?? null;
        const what = event.type === 'approval.cancelled' ? 'cancelled' : 'expired';
        return this.#line(agent, s.dim(`  – ${what} (${safe(event.data.reason)})`));
      }
      case 'approval.reminded':
      case 'approval.escalated': {
        const agent = this.#approvalAgents.get(event.data.approvalId) ?? null;
        const step =
          event.type === 'approval.reminded'
            ? 'still unanswered: reminded'
            : `still unanswered: escalated to ${event.data.to.map((name) => safe(name)).join(', ')}`;
        return this.#line(agent, s.dim(`  … ${step} (route ${safe(event.data.route)})`));
      }
      case 'permission.decided':
        return this.#line(
          event.data.subagentId,
          s.dim(
            `  ${event.data.behavior === 'allow' ? '✓ allowed' : '✗ denied'} by ${event.data.source}: ${safe(event.data.reason)}`,
          ),
        );
      case 'permission.rejected':
        return this.#line(event.data.subagentId, s.red(`  ✗ refused: ${safe(event.data.message)}`));
      case 'subagent.started':
        this.#subagents.set(
          event.data.subagentId,
          oneLine(event.data.description ?? event.data.subagentId, 80),
        );
        return this.#line(event.data.subagentId, s.dim('subagent started'));
      case 'subagent.ended': {
        const summary = event.data.summary === null ? '' : `: ${oneLine(event.data.summary, 200)}`;
        return this.#line(event.data.subagentId, s.dim(`subagent ${event.data.status}${summary}`));
      }
      case 'run.created':
        if (event.data.trigger === 'history_lost')
          this.#line(null, s.dim('(sending the message again in a new CLI session)'));
        else if (event.data.trigger !== 'human') this.#line(null, s.dim('(the agent continues by itself)'));
        return;
      case 'run.ended':
        return this.#runEnded(event.data);
      case 'run.api_retry':
        return this.#line(
          null,
          s.dim(`  (API retry ${event.data.attempt ?? '?'}: ${safe(event.data.error ?? '')})`),
        );
      case 'session.ended':
        if (event.data.error !== null)
          this.#line(null, s.red(`The CLI ended with an error: ${safe(event.data.error)}`));
        return;
      case 'thread.parked':
        return this.#line(null, s.dim('(the CLI was parked while idle; the next message resumes it)'));
      case 'external.notified':
        return this.#line(null, s.dim(`(in the terminal: ${safe(event.data.message)})`));
      case 'thread.adopted':
        return this.#line(
          null,
          s.yellow(
            `(host ${safe(event.data.to)} took the thread over from ${safe(event.data.from ?? 'its first host')})`,
          ),
        );
      case 'session.resume_failed':
        return this.#line(
          null,
          s.yellow(`The earlier conversation could not be restored: ${safe(event.data.error)}`),
        );
      case 'thread.created':
      case 'thread.mode_changed':
      case 'thread.titled':
      case 'thread.rule_revoked':
      case 'thread.deadlines_set':
      case 'thread.command_requested':
      case 'thread.command_done':
      case 'session.started':
      case 'session.initialized':
      case 'session.stopping':
      case 'session.process_started':
      case 'session.process_exited':
      case 'session.reattached':
      case 'session.detached':
      case 'session.leftover_process':
      case 'run.started':
      case 'run.released':
        return;
    }
  }

  #runEnded(data: Extract<StoredEvent, { type: 'run.ended' }>['data']): void {
    const s = this.#s;
    const parts: string[] = [];
    const ms = data.result?.durationMs;
    if (typeof ms === 'number') parts.push(`${(ms / 1000).toFixed(1)}s`);
    const cost = data.result?.totalCostUsd;
    if (typeof cost === 'number') parts.push(`$${cost.toFixed(4)}`);
    const info = parts.length === 0 ? '' : ` (${parts.join(', ')})`;
    if (data.status === 'completed') return this.#line(null, s.dim(`— turn completed${info}`));
    const reason = data.reason === null ? '' : `: ${safe(data.reason)}`;
    this.#line(null, s.red(`— turn ${data.status}${reason}${info}`));
  }

  #result(agentId: string | null, text: string, isError: boolean, max: number): void {
    const lines = text.replace(/\s+$/, '').split('\n');
    const shown = lines.slice(0, max).map((line) => oneLine(line, 200));
    if (lines.length > max) shown.push(`… ${lines.length - max} more lines`);
    shown.forEach((line, i) => {
      const head = i === 0 ? (isError ? '  ↳ error: ' : '  ↳ ') : '    ';
      this.#line(agentId, isError ? this.#s.red(head + line) : this.#s.dim(head + line));
    });
  }

  /** Lines of a subagent are indented and carry its description. */
  #line(agentId: string | null, text: string): void {
    const name = this.subagentName(agentId);
    const prefix = name === null ? '' : `  │ ${this.#s.bold(`[${name}]`)} `;
    for (const line of text.split('\n')) this.#out(`${prefix}${line}\n`);
  }
}
