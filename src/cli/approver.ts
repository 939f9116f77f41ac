// Answers the thread's approvals for `warden run`, one at a time, by the chosen policy: ask on stdin, allow
// everything (--yes), deny everything (--deny), or — in a pipe without a flag — deny and say why, so an
// unattended run never hangs on a question nobody can answer. An approval settled elsewhere (cancelled
// when its subagent ended, decided from the web UI) stops being asked.
import { ConflictError } from '../protocol/errors.js';
import type { Supervisor } from '../supervisor/index.js';
import type { StoredEvent } from '../store/event-types.js';
import type { DecisionBehavior } from '../store/records.js';
import { parseAnswer, type AnswerReader } from './answer-reader.js';
import type { Progress } from './progress.js';
import { approvalQuestion } from './approval-question.js';
import { terminalSafe } from './terminal-text.js';
import { type Styles, type Write } from './transcript.js';

export type ApprovalPolicy = 'ask' | 'yes' | 'deny' | 'unattended';

type Requested = Extract<StoredEvent, { type: 'approval.requested' }>['data'];

export interface ApproverSetup {
  supervisor: Supervisor;
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
  #asking: { approvalId: string; abort: AbortController } | undefined;
  #working = false;
  #explained = false;

  constructor(setup: ApproverSetup) {
    this.#setup = setup;
  }

  onRequested(request: Requested): void {
    this.#queue.push(request);
    if (!this.#working) void this.#drain();
  }

  /** The approval is no longer pending: forget it, or stop asking about it. */
  onSettled(approvalId: string): void {
    const index = this.#queue.findIndex((r) => r.approvalId === approvalId);
    if (index >= 0) this.#queue.splice(index, 1);
    if (this.#asking?.approvalId === approvalId) this.#asking.abort.abort();
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
    const { policy, err, styles } = this.#setup;
    switch (policy) {
      case 'yes':
        return this.#decide(request.approvalId, 'allow', undefined);
      case 'deny':
        return this.#decide(request.approvalId, 'deny', 'Denied by warden run --deny');
      case 'unattended':
        if (!this.#explained) {
          this.#explained = true;
          err(
            styles.yellow(
              'warden: stdin is not a terminal, so permission requests are denied ' +
                '(pass --yes to allow them, --deny to deny them quietly, or --ask to answer on stdin)\n',
            ),
          );
        }
        return this.#decide(
          request.approvalId,
          'deny',
          'Denied: warden run has no one to ask (not a terminal)',
        );
      case 'ask':
        return this.#ask(request);
    }
  }

  async #ask(request: Requested): Promise<void> {
    const { reader, progress, err, styles, subagentName } = this.#setup;
    const abort = new AbortController();
    this.#asking = { approvalId: request.approvalId, abort };
    const from = subagentName(request.subagentId);
    const question = approvalQuestion(request.toolName, request.input, from, styles);
    // "always" adds exactly these rules, for this CLI session only; with none, it is not offered.
    const rules = request.alwaysAllowRules;
    const always =
      rules.length === 0
        ? ''
        : `  always (a) adds, for this session only: ${rules.map((rule) => styles.bold(terminalSafe(rule))).join(', ')}\n`;
    const choices = rules.length === 0 ? 'allow (y) / deny (n)? ' : 'allow (y) / always (a) / deny (n)? ';
    progress.pause();
    try {
      for (;;) {
        err(`${question}${always}  ${choices}`);
        const line = await reader.next(abort.signal);
        if (abort.signal.aborted) return err('\n');
        if (this.#setup.echo && line !== null) err(`${line}\n`);
        if (line === null) {
          err('\n');
          return await this.#decide(request.approvalId, 'deny', 'Denied: no answer (stdin closed)');
        }
        const behavior = parseAnswer(line);
        if (behavior === 'allow_always' && rules.length === 0) {
          err(`  always is not offered here: no rule as narrow as this request; answer y or n\n`);
          continue;
        }
        if (behavior !== undefined) return await this.#decide(request.approvalId, behavior, undefined);
        err(rules.length === 0 ? `  answer y or n\n` : `  answer y, a or n\n`);
      }
    } finally {
      this.#asking = undefined;
      progress.resume();
    }
  }

  async #decide(approvalId: string, behavior: DecisionBehavior, message: string | undefined): Promise<void> {
    try {
      await this.#setup.supervisor.decide(approvalId, {
        behavior,
        ...(message === undefined ? {} : { message }),
      });
    } catch (error) {
      // Settled meanwhile (its subagent ended, the run was interrupted): the transcript says how.
      if (error instanceof ConflictError) return;
      this.#setup.err(
        `warden: could not answer the approval: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
}
