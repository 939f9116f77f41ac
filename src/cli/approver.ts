// Answers the thread's approvals for `warden run`, one at a time, by the chosen policy: ask on stdin, allow
// everything (--yes; the model's questions, which take answers, are declined), deny everything (--deny), or — in a pipe without a flag — deny and say why, so an
// unattended run never hangs on a question nobody can answer (attached to a server, leave them to the
// browser and `warden inbox` instead). An approval settled elsewhere (cancelled when its subagent ended,
// decided in the browser) stops being asked; the transcript says who settled it. Asking, "always" is
// followed by the scope (answer-dialogs.ts), `x` denies and stops the turn, the model's questions are
// asked one by one with their options, and a plan is shown to approve or send back.
import { ConflictError } from '../protocol/errors.js';
import type { StoredEvent } from '../store/event-types.js';
import { parseAnswer, type AnswerReader } from './answer-reader.js';
import { askPlan, askQuestions, askScope, type DialogDecision, type DialogIo } from './answer-dialogs.js';
import type { Progress } from './progress.js';
import { approvalQuestion } from './approval-question.js';
import { terminalSafe } from '../view/visible-text.js';
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
  /** The thread's folder, to say where a project rule is written. */
  cwd?: string;
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
        // A question has no yes: allowing it takes answers, which nobody here gave. It is declined, and
        // the model goes on without them (a plan is approved like any call).
        if (request.toolName === 'AskUserQuestion') {
          this.#setup.err(
            this.#setup.styles.dim('warden: --yes answers no questions: the agent’s question is declined\n'),
          );
          return this.#decide(request.approvalId, {
            behavior: 'deny',
            message: 'Not answered: warden run --yes allows tool calls but answers no questions',
          });
        }
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
    const io: DialogIo = { reader, err, styles, signal: abort.signal, echo: this.#setup.echo };
    progress.pause();
    try {
      if (request.toolName === 'AskUserQuestion' || request.toolName === 'ExitPlanMode') {
        if (from !== null) err(styles.dim(`  (from subagent ${from})\n`));
        const answer =
          request.toolName === 'AskUserQuestion'
            ? await askQuestions(io, request.input)
            : await askPlan(io, request.input);
        return await this.#finishDialog(request.approvalId, answer, abort.signal);
      }
      err(
        `${approvalQuestion(request.toolName, request.input, from, styles)}${alwaysLine(rules, styles)}${stopDenyLine(styles)}`,
      );
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
        if (answer?.behavior === 'allow_always') {
          const scope = await askScope(io, rules, this.#setup.cwd ?? null);
          return await this.#finishDialog(
            request.approvalId,
            scope === null ? null : { behavior: 'allow_always', scope, rules: [...rules] },
            abort.signal,
          );
        }
        if (answer !== undefined)
          return await this.#decide(request.approvalId, {
            behavior: answer.behavior,
            ...(answer.message === undefined ? {} : { message: answer.message.slice(0, MAX_REASON) }),
            ...(answer.interrupt === true ? { interrupt: true } : {}),
          });
        err(rules.length === 0 ? `  answer y or n (n <reason> to say why)\n` : `  answer y, a or n\n`);
      }
    } finally {
      this.#asking = undefined;
      progress.resume();
    }
  }

  /** A dialog's answer: sent; or, with none, a deny when stdin ended (nothing when settled elsewhere). */
  async #finishDialog(approvalId: string, answer: DialogDecision | null, signal: AbortSignal): Promise<void> {
    if (answer !== null) return this.#decide(approvalId, answer);
    if (signal.aborted) return this.#setup.err(this.#setup.styles.dim('(answered elsewhere)\n'));
    return this.#decide(approvalId, { behavior: 'deny', message: 'Denied: no answer (stdin closed)' });
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

/** The choices line: `allow (y) / always (a) / deny (n [reason])? ` (stopDenyLine names the fourth). */
export function askChoices(always: boolean): string {
  return always ? 'allow (y) / always (a) / deny (n [reason])? ' : 'allow (y) / deny (n [reason])? ';
}

/** The fourth answer, said with the question: deny and stop the turn. */
export function stopDenyLine(styles: Styles): string {
  return styles.dim(
    '  or deny and stop the turn (x [reason]): the agent does nothing more until the next message\n',
  );
}

/** What "always" adds — exactly these rules, for the scope asked next; nothing when it is not offered. */
export function alwaysLine(rules: readonly string[], styles: Styles): string {
  if (rules.length === 0) return '';
  return `  always (a) adds exactly: ${rules.map((rule) => styles.bold(terminalSafe(rule))).join(', ')} — for this CLI session, this thread or this project (asked next)\n`;
}
