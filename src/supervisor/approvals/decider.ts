// The one place that decides an approval: an answer from a person or a webhook, a batch of them, a
// deadline that passed, and what the policy settles by itself when the thread's mode changes (chosen, or
// with an approved plan). A decision is validated once, where it comes in (validate.ts), then checked
// against its approval (decision-input.ts, grants.ts) and committed compare-and-set: an approval settled
// meanwhile gives a ConflictError.
import { ConflictError, StoreError, ValidationError } from '../../protocol/errors.js';
import type { EventDraft, StoredEvent } from '../../store/event-types.js';
import type { ApprovalRecord, DecidedBy, ThreadMode, ThreadRecord } from '../../store/records.js';
import { compiledPolicyFor, validateMode, type CompiledPolicy } from '../../policy/policy.js';
import type { SupervisorCore } from '../core.js';
import type { FleetMembership } from '../fleet/fleet.js';
import type { Threads } from '../runtime/threads.js';
import type { Decision } from '../types.js';
import { validateId } from '../validate.js';
import {
  selectApprovals,
  leftOutOfAllow,
  type BatchPreview,
  validateBatchIds,
  validateSelection,
  type BatchResult,
  type BatchSelection,
} from './batch.js';
import { DeadlineClock } from './deadline-clock.js';
import { deadlineMessage } from './deadlines.js';
import { decisionInput } from './decision-input.js';
import { decisionGrant, effectiveRules, grantUpdates, validateGrant } from './grants.js';
import { policyAnswer } from './policy-answer.js';
import { validateDecision, type CheckedDecision } from './validate.js';

/** What deciding asks of a fleet: whether another host holds the thread's requests, and is reachable. */
export type DecisionRoute = Pick<FleetMembership, 'ownerElsewhere' | 'checkOwnerReachable'>;

/** How soon a deadline the store could not record is applied again. */
const DEADLINE_RETRY_MS = 1000;

export class Decider {
  readonly #core: SupervisorCore;
  readonly #threads: Threads;
  readonly #route: DecisionRoute | undefined;
  /** Answers approvals whose deadline passes (deadline-clock.ts). */
  readonly #deadlines = new DeadlineClock((approvalId) => this.#deadlinePassed(approvalId));

  constructor(core: SupervisorCore, threads: Threads, route: DecisionRoute | undefined) {
    this.#core = core;
    this.#threads = threads;
    this.#route = route;
  }

  /** Told of every commit: a deadline's clock starts with its approval and stops when it is settled. */
  onCommitted(events: readonly StoredEvent[]): void {
    this.#deadlines.onCommitted(events);
  }

  /** At open: the clocks of the pending approvals found (a deadline already past applies now). */
  restoreDeadlines(pending: readonly ApprovalRecord[]): void {
    this.#deadlines.restore(pending);
  }

  /** At close: no deadline fires any more. */
  stopDeadlines(): void {
    this.#deadlines.clear();
  }

  /**
   * Answers a pending approval. Right after a re-attach, waits until the CLI has said whether it still
   * waits on the request.
   */
  decide(approvalId: string, decision: Decision): Promise<ApprovalRecord> {
    this.#core.checkOpen();
    validateId(approvalId, 'approvalId');
    return this.#decideChecked(approvalId, validateDecision(decision));
  }

  /**
   * The pending approvals a batch would cover: a thread's, a subagent's, or those a rule covers (for an
   * allow, as an allow rule would: every part of a command).
   */
  previewBatch(select: BatchSelection, behavior: 'allow' | 'deny'): BatchPreview {
    this.#core.checkOpen();
    const selection = validateSelection(select);
    if (behavior !== 'allow' && behavior !== 'deny')
      throw new ValidationError('a batch allows or denies', 'behavior');
    const pending = this.#core.store.listApprovals({ status: 'pending' });
    const cwdOf = (threadId: string): string => this.#threads.thread(threadId).cwd;
    const preview: BatchPreview = { approvals: [], leftOut: [] };
    for (const approval of selectApprovals(pending, selection, behavior, cwdOf)) {
      const reason =
        behavior === 'allow' ? leftOutOfAllow(approval, this.#policyOf(approval.threadId)) : undefined;
      if (reason === undefined) preview.approvals.push(approval);
      else preview.leftOut.push({ id: approval.id, toolName: approval.toolName, reason });
    }
    return preview;
  }

  /** Answers each approval with one decision, each compare-and-set and on disk before the next. */
  async decideBatch(approvalIds: readonly string[], decision: Decision): Promise<BatchResult> {
    this.#core.checkOpen();
    const ids = validateBatchIds(approvalIds);
    const checked = validateDecision(decision);
    if (checked.behavior === 'allow_always')
      throw new ValidationError('a batch allows once or denies', 'behavior');
    const approvals = ids.map((id) => this.#threads.approval(id));
    const result: BatchResult = { decided: [], alreadySettled: [], leftOut: [] };
    for (const approval of approvals) {
      const { id } = approval;
      // Checked here too, not only in the preview: ids can come from anywhere.
      const reason =
        checked.behavior === 'allow' && approval.status === 'pending'
          ? leftOutOfAllow(approval, this.#policyOf(approval.threadId))
          : undefined;
      if (reason !== undefined) {
        result.leftOut.push({ id, toolName: approval.toolName, reason });
        continue;
      }
      try {
        result.decided.push(await this.#core.acknowledged(() => this.#decideChecked(id, checked)));
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        result.alreadySettled.push({ id, status: this.#threads.approval(id).status });
      }
    }
    return result;
  }

  /** Changes the thread's mode; pending approvals the new policy decides by itself are settled now. */
  setMode(threadId: string, mode: ThreadMode): ThreadRecord {
    this.#core.checkOpen();
    const next = validateMode(mode);
    const thread = this.#threads.thread(threadId);
    if (thread.mode === next) return thread;
    this.#core.commit(threadId, [
      { type: 'thread.mode_changed', data: { mode: next, previous: thread.mode } },
    ]);
    const policy = this.#threads.runtime(threadId).policy();
    for (const approval of this.#core.store.listApprovals({ threadId, status: 'pending' })) {
      const answer = policyAnswer(policy, approval);
      if (answer !== undefined) this.#core.commit(threadId, [answer]);
    }
    return this.#threads.thread(threadId);
  }

  /** The thread's policy as the permission gate applies it, read from the record (no runtime made). */
  #policyOf(threadId: string): CompiledPolicy {
    const thread = this.#threads.thread(threadId);
    return compiledPolicyFor(thread.mode, effectiveRules(thread), thread.cwd);
  }

  async #decideChecked(approvalId: string, decision: CheckedDecision): Promise<ApprovalRecord> {
    this.#core.checkOpen();
    const read = this.#threads.approval(approvalId);
    const reconciling = this.#core.reconciling.get(read.threadId);
    if (reconciling === undefined || this.#core.waiters.has(approvalId)) return this.#answer(read, decision);
    await reconciling;
    return this.#answer(this.#threads.approval(approvalId), decision);
  }

  /**
   * `approval` is read in the same turn of the event loop: nothing has changed it since. The decision is
   * committed at the end of the turn, in one transaction with the turn's other decisions and permission
   * requests (core.commitThisTurn); the projector's compare-and-set still refuses it alone (a
   * ConflictError) when something settled the approval first, in this turn or on another host.
   */
  async #answer(approval: ApprovalRecord, decision: CheckedDecision): Promise<ApprovalRecord> {
    this.#core.checkOpen();
    const { behavior, message, interrupt, by, decidedBy, given } = decision;
    const approvalId = approval.id;
    if (approval.status !== 'pending')
      throw new ConflictError(`Approval ${approvalId} is already ${approval.status}`);
    // An edit, answers or a plan's end: checked (and an edit judged by the policy) before anything is sent.
    const sent = decisionInput(approval, given, () => this.#threads.runtime(approval.threadId).policy());
    const edit = sent.updatedInput === null ? {} : { updatedInput: sent.updatedInput };
    // An edit (answers to its questions are not one).
    if (given.updatedInput !== undefined && this.#threads.thread(approval.threadId).agent === 'codex')
      throw new ValidationError(
        `Approval ${approvalId} is Codex's: it runs what it asked for or nothing; allow it as asked, or deny it`,
        'updatedInput',
      );
    if (behavior === 'allow_always' && approval.alwaysAllowRules.length === 0)
      throw new ValidationError(
        `allow_always is not offered for approval ${approvalId}: no rule as narrow as the request exists for ${approval.toolName}; allow it once instead`,
        'behavior',
      );
    this.#checkAnswerable(approval);
    const second =
      behavior === 'deny' ? undefined : this.#secondAllow(approval, decidedBy, sent.updatedInput);
    if (second === 'first') return this.#threads.approval(approvalId);
    // The rules the approval shows (or narrower ones), for the scope chosen; never the CLI's suggestions.
    const thread = this.#threads.thread(approval.threadId);
    const grant =
      behavior === 'allow_always' ? validateGrant(approval, thread.cwd, given.scope, given.rules) : null;
    const updatedPermissions =
      grant !== null
        ? grantUpdates(grant)
        : sent.permissionUpdates.length > 0
          ? sent.permissionUpdates
          : null;
    const granted = grant === null ? null : decisionGrant(grant, thread.cwd, thread.sessionId);
    const drafts: EventDraft[] = [
      {
        type: 'approval.decided',
        data: {
          ...edit,
          approvalId,
          behavior,
          message,
          interrupt,
          updatedPermissions,
          by,
          decidedBy,
          ...(granted === null ? {} : { grant: granted }),
          ...(second === undefined ? {} : { endorsedBy: second }),
        },
      },
      ...(granted === null
        ? []
        : [
            {
              type: 'thread.rules_granted' as const,
              data: {
                approvalId,
                scope: granted.scope,
                rules: granted.rules,
                sessionId: granted.sessionId,
              },
            },
          ]),
    ];
    const wanted = (): boolean => !this.#core.closed;
    if ((await this.#core.commitThisTurn(approval.threadId, drafts, wanted)) === undefined)
      throw new ConflictError('The supervisor is closed');
    // A plan approved with a mode chosen: the thread goes on in that mode.
    if (sent.mode !== null) this.setMode(approval.threadId, sent.mode);
    return this.#threads.approval(approvalId);
  }

  /**
   * An allow of a two-person approval (two-person.ts): the first is recorded (`approval.endorsed`) and
   * answers nobody — 'first'; the second, from another decider, decides it — the first's decider is
   * returned. Undefined: one allow answers this approval. The projector checks both compare-and-set, so a
   * first allow that lost a race to another decider's becomes the second.
   */
  #secondAllow(
    approval: ApprovalRecord,
    decidedBy: DecidedBy,
    edited: Record<string, unknown> | null,
  ): DecidedBy | 'first' | undefined {
    if (approval.twoPerson === null) return undefined;
    if (edited !== null)
      throw new ValidationError(
        `Approval ${approval.id} needs two deciders' allows of the same input; it cannot be allowed edited`,
        'updatedInput',
      );
    let first = approval.endorsements[0]?.decidedBy;
    if (first === undefined) {
      try {
        this.#core.commit(approval.threadId, [
          { type: 'approval.endorsed', data: { approvalId: approval.id, decidedBy } },
        ]);
        return 'first';
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        first = this.#threads.approval(approval.id).endorsements[0]?.decidedBy;
        if (first === undefined) throw error;
      }
    }
    if (first.name === decidedBy.name)
      throw new ConflictError(
        `Approval ${approval.id} was already allowed by ${first.name}; it needs a second person's allow (${approval.twoPerson})`,
      );
    return first;
  }

  /**
   * Someone holds the request to take the answer: this host's waiter, or the host of the fleet that runs
   * the thread (it answers once the decision is committed). A pending approval nobody waits for cannot
   * be answered: it is settled rather than pretended to.
   */
  #checkAnswerable(approval: ApprovalRecord): void {
    const elsewhere = this.#route?.ownerElsewhere(approval.threadId) !== undefined;
    if (elsewhere) this.#route?.checkOwnerReachable(approval.threadId);
    if (elsewhere || this.#core.waiters.has(approval.id)) return;
    this.#core.commit(approval.threadId, [
      { type: 'approval.cancelled', data: { approvalId: approval.id, reason: 'no_live_request' } },
    ]);
    throw new ConflictError(`Approval ${approval.id} has no live request to answer; it was cancelled`);
  }

  /** A deadline passed: the approval is answered as its deadline says, if it is still pending. */
  #deadlinePassed(approvalId: string): void {
    if (this.#core.closed) return;
    const approval = this.#core.store.getApproval(approvalId);
    if (approval?.status !== 'pending' || approval.deadline === null) return;
    const { behavior } = approval.deadline;
    const decision: Decision = {
      behavior,
      ...(behavior === 'deny' ? { message: deadlineMessage(approval.deadline) } : {}),
      by: 'timeout',
      decidedBy: { name: 'deadline', via: 'timeout' },
    };
    this.#core
      .acknowledged(() => this.decide(approvalId, decision))
      .catch((error: unknown) => {
        // The store cannot write for now: the deadline still applies, once it can.
        if (error instanceof StoreError) {
          this.#core.warn(error);
          setTimeout(() => this.#deadlinePassed(approvalId), DEADLINE_RETRY_MS).unref();
          return;
        }
        // Answered or withdrawn at the same moment: the first change stands.
        if (!(error instanceof ConflictError))
          this.#core.warnFailure(error, `Could not apply the deadline of approval ${approvalId}`);
      });
  }
}
