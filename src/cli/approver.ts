// Answers the thread's approvals for `warden run`, one at a time, by the chosen policy: ask on stdin, allow
// everything (--yes), deny everything (--deny), or — in a pipe without a flag — deny and say why, so an
// unattended run never hangs on a question nobody can answer (attached to a server, leave them to the
// browser and `warden inbox` instead). An approval settled elsewhere (cancelled when its subagent ended,
// decided in the browser) stops being asked; the transcript says who settled it.
import { ConflictError } from '../protocol/errors.js';
import type { StoredEvent } from '../store/event-types.js';
import { parseAnswer, type AnswerReader } from './answer-reader.js';
import type { Progress } from './progress.js';
import { approvalQuestion } from './approval-question.js';
import { terminalSafe } from './terminal-text.js';
import type { HostDecision } from './thread-host.js';
import { type Styles, type Write } from './transcript.js';

export type ApprovalPolicy = 'ask' | 'yes' | 'deny' | 'unattended' | 'elsewhere';

type Requested = Extract<StoredEvent, { type: 'approval.requested' }>['data'];

/** A deny's typed reason is cut here (the server takes up to 4000 characters). */
const MAX_REASON = 2000;

export interface ApproverSetup {
  decide: (approvalId: string, decision: HostDecision) => Promise<void>;
  policy: ApprovalPolicy;
  reader: AnswerReader;
  progress: Progress;
  /** Questions and notices (stderr). */
  err: Write;
  styles: Styles;
  subagentName: (subagentId: string | null) => string | null;
  /** Repeat the answer after reading it (stdin is not a terminal, so nothing echoed it). */
  echo: boolean;
}

export class Approver {
  readonly #setup: ApproverSetup;
  readonly #queue: Requested[] = [];
  /** Approvals this terminal answered (or is answering): any other decision came from elsewhere. */
  readonly #answered = new Set<string>();
  #asking: { approvalId: string; abort: AbortController } | undefined;
  #working = false;
  #explained = false;

  constructor(setup: ApproverSetup) {
    this.#setup = setup;
  }

  onRequested(request: Requested): void {
    if (this.#setup.policy === 'elsewhere') return this.#explainOnce();
    this.#queue.push(request);
    if (!this.#working) void this.#drain();
  }

  /** The approval is no longer pending: forget it, or stop asking about it. */
  onSettled(approvalId: string): void {
    const index = this.#queue.findIndex((r) => r.approvalId === approvalId);
    if (index >= 0) this.#queue.splice(index, 1);
    if (this.#asking?.approvalId === approvalId) this.#asking.abort.abort();
  }

  /** Whether this terminal gave the answer (the transcript names anyone else). */
  answered(approvalId: string): boolean {
    return this.#answered.has(approvalId);
  }

  async #drain(): Promise<void> {
    this.#working = true;
    try {
      for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift())
        await this.#answer(next);
    } finally {
      this.#working = false;
    }
  }

  async #answer(request: Requested): Promise<void> {
    switch (this.#setup.policy) {
      case 'yes':
        return this.#decide(request.approvalId, { behavior: 'allow' });
      case 'deny':
        return this.#decide(request.approvalId, { behavior: 'deny', message: 'Denied by warden run --deny' });
      case 'unattended':
        this.#explainOnce();
        return this.#decide(request.approvalId, {
          behavior: 'deny',
          message: 'Denied: warden run has no one to ask (not a terminal)',
        });
      case 'elsewhere':
        return;
      case 'ask':
        return this.#ask(request);
    }
  }

  #explainOnce(): void {
    if (this.#explained) return;
    this.#explained = true;
    const { err, styles, policy } = this.#setup;
    err(
      styles.yellow(
        policy === 'elsewhere'
          ? 'warden: stdin is not a terminal, so permission requests wait for an answer in the browser ' +
              'or from warden inbox (pass --yes, --deny, or --ask to answer them here)\n'
          : 'warden: stdin is not a terminal, so permission requests are denied ' +
              '(pass --yes to allow them, --deny to deny them quietly, or --ask to answer on stdin)\n',
      ),
    );
  }

  /** The question is printed once; a wrong answer gets only the choices again. */
  async #ask(request: Requested): Promise<void> {
    const { reader, progress, err, styles, subagentName } = this.#setup;
    const abort = new AbortController();
    this.#asking = { approvalId: request.approvalId, abort };
    const from = subagentName(request.subagentId);
    const rules = request.alwaysAllowRules;
    const choices = askChoices(rules.length > 0);
    progress.pause();
    try {
      err(`${approvalQuestion(request.toolName, request.input, from, styles)}${alwaysLine(rules, styles)}`);
      for (;;) {
        err(`  ${choices}`);
        const line = await reader.next(abort.signal);
        if (abort.signal.aborted) return err(styles.dim('(answered elsewhere)\n'));
        if (this.#setup.echo && line !== null) err(`${line}\n`);
        if (line === null) {
          err('\n');
          return await this.#decide(request.approvalId, {
            behavior: 'deny',
            message: 'Denied: no answer (stdin closed)',
          });
        }
        const answer = parseAnswer(line);
        if (answer?.behavior === 'allow_always' && rules.length === 0) {
          err(`  always is not offered here: no rule as narrow as this request; answer y or n\n`);
          continue;
        }
        if (answer !== undefined)
          return await this.#decide(request.approvalId, {
            behavior: answer.behavior,
            ...(answer.message === undefined ? {} : { message: answer.message.slice(0, MAX_REASON) }),
          });
        err(rules.length === 0 ? `  answer y or n (n <reason> to say why)\n` : `  answer y, a or n\n`);
      }
    } finally {
      this.#asking = undefined;
      progress.resume();
    }
  }

  async #decide(approvalId: string, decision: HostDecision): Promise<void> {
    this.#answered.add(approvalId);
    try {
      await this.#setup.decide(approvalId, decision);
    } catch (error) {
      // Settled meanwhile (its subagent ended, the run was interrupted, the browser answered first).
      if (error instanceof ConflictError) {
        this.#answered.delete(approvalId);
        return this.#setup.err(this.#setup.styles.dim('  (it was already settled elsewhere)\n'));
      }
      this.#answered.delete(approvalId);
      this.#setup.err(
        `warden: could not answer the approval: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
}

/** The choices line: `allow (y) / always (a) / deny (n [reason])? `. */
export function askChoices(always: boolean): string {
  return always ? 'allow (y) / always (a) / deny (n [reason])? ' : 'allow (y) / deny (n [reason])? ';
}

/** What "always" adds — exactly these rules, for this CLI session only; nothing when it is not offered. */
export function alwaysLine(rules: readonly string[], styles: Styles): string {
  if (rules.length === 0) return '';
  return `  always (a) adds, for this session only: ${rules.map((rule) => styles.bold(terminalSafe(rule))).join(', ')}\n`;
}
