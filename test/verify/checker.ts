// The history checker: proves over a whole history (history.ts) what Warden promises of its approvals
// across a fleet. Each check is a function of the history; checkHistory runs them all and returns every
// anomaly found (none for a clean history). The kinds:
// - two-winners: an approval has more than one decision in the log, or more than one decide was answered
//   with a final status (a 200 that decided, not an endorsement).
// - applied-twice: a CLI received more than one answer for one approval.
// - acknowledged-lost: a decide answered 200 with a final status whose decision is not the log's, or that
//   never reached the CLI.
// - cli-not-in-log: a CLI received an answer the log does not hold (or a different one).
// - status-regressed: one host showed an approval final and later pending, or two different final statuses.
// - event-not-in-log / event-out-of-order: a WebSocket connection delivered an event the log does not
//   hold at that seq, or seqs that did not increase.
// - deadline-early: a deadline answered an approval before the time the request set for it.
import type { ActionOp, History, LogEvent, Operation, SocketEventOp } from './history.js';

export type AnomalyKind =
  | 'two-winners'
  | 'applied-twice'
  | 'acknowledged-lost'
  | 'cli-not-in-log'
  | 'status-regressed'
  | 'event-not-in-log'
  | 'event-out-of-order'
  | 'deadline-early';

export interface Anomaly {
  readonly kind: AnomalyKind;
  readonly approvalId?: string;
  readonly detail: string;
}

const FINAL = new Set(['allowed', 'denied', 'cancelled', 'expired']);
const statusOf = (behavior: unknown): string => (behavior === 'deny' ? 'denied' : 'allowed');

function byApproval<T extends { approvalId?: string | undefined }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    if (item.approvalId === undefined) continue;
    out.set(item.approvalId, [...(out.get(item.approvalId) ?? []), item]);
  }
  return out;
}

const approvalIdOf = (event: LogEvent): string | undefined =>
  typeof event.data.approvalId === 'string' ? event.data.approvalId : undefined;

function decisionsInLog(log: readonly LogEvent[]): Map<string, LogEvent[]> {
  return byApproval(
    log.filter((e) => e.type === 'approval.decided').map((e) => ({ ...e, approvalId: approvalIdOf(e) })),
  );
}

const ops = <K extends Operation['kind']>(
  history: History,
  ...kinds: K[]
): Extract<Operation, { kind: K }>[] =>
  history.operations.filter((op): op is Extract<Operation, { kind: K }> =>
    (kinds as string[]).includes(op.kind),
  );

/** Decides answered 200 that settled the approval (an endorsement answers `pending`). */
function winningDecides(history: History): ActionOp[] {
  return ops(history, 'decide', 'cancel', 'stop', 'send').filter(
    (op) => op.kind === 'decide' && op.status === 200 && op.answered !== undefined && FINAL.has(op.answered),
  );
}

export function checkOneWinner(history: History): Anomaly[] {
  const found: Anomaly[] = [];
  for (const [approvalId, events] of decisionsInLog(history.log))
    if (events.length > 1)
      found.push({
        kind: 'two-winners',
        approvalId,
        detail: `${events.length} approval.decided events in the log (seqs ${events.map((e) => e.seq).join(', ')})`,
      });
  for (const [approvalId, won] of byApproval(winningDecides(history)))
    if (won.length > 1)
      found.push({
        kind: 'two-winners',
        approvalId,
        detail: `${won.length} decides answered 200 with a final status: ${won.map((op) => `${op.client} on ${op.host} (${op.behavior})`).join(', ')}`,
      });
  return found;
}

export function checkAppliedOnce(history: History): Anomaly[] {
  const found: Anomaly[] = [];
  for (const [approvalId, received] of byApproval(ops(history, 'cli-received')))
    if (received.length > 1)
      found.push({
        kind: 'applied-twice',
        approvalId,
        detail: `the CLI received ${received.length} answers: ${received.map((r) => r.behavior).join(', ')}`,
      });
  return found;
}

export function checkAcknowledgedKept(history: History): Anomaly[] {
  const found: Anomaly[] = [];
  const inLog = decisionsInLog(history.log);
  const received = byApproval(ops(history, 'cli-received'));
  for (const op of winningDecides(history)) {
    const approvalId = op.approvalId!;
    const logged = inLog.get(approvalId) ?? [];
    if (!logged.some((e) => statusOf(e.data.behavior) === op.answered))
      found.push({
        kind: 'acknowledged-lost',
        approvalId,
        detail: `${op.client}'s ${op.behavior} on ${op.host} was answered 200 (${op.answered}) but the log holds ${logged.map((e) => String(e.data.behavior)).join(', ') || 'no decision'}`,
      });
    const got = received.get(approvalId) ?? [];
    if (!got.some((r) => statusOf(r.behavior) === op.answered))
      found.push({
        kind: 'acknowledged-lost',
        approvalId,
        detail: `${op.client}'s ${op.behavior} on ${op.host} was answered 200 but the CLI received ${got.map((r) => r.behavior).join(', ') || 'nothing'}`,
      });
  }
  return found;
}

export function checkCliMatchesLog(history: History): Anomaly[] {
  const found: Anomaly[] = [];
  const inLog = decisionsInLog(history.log);
  for (const r of ops(history, 'cli-received')) {
    const logged = inLog.get(r.approvalId) ?? [];
    if (!logged.some((e) => e.data.behavior === r.behavior))
      found.push({
        kind: 'cli-not-in-log',
        approvalId: r.approvalId,
        detail: `the CLI received ${r.behavior}; the log holds ${logged.map((e) => String(e.data.behavior)).join(', ') || 'no decision'}`,
      });
  }
  return found;
}

/** What one host showed of an approval, in real-time order (an answer completed before the next was asked). */
export function checkStatusMonotone(history: History): Anomaly[] {
  const found: Anomaly[] = [];
  const seen: { approvalId: string; host: string; status: string; invokedAt: number; completedAt: number }[] =
    [
      ...ops(history, 'observe'),
      ...ops(history, 'decide', 'cancel', 'stop', 'send')
        .filter((op) => op.kind === 'decide' && op.status === 200 && op.answered !== undefined)
        .map((op) => ({ ...op, approvalId: op.approvalId!, status: op.answered! })),
    ];
  for (const [approvalId, views] of byApproval(seen)) {
    const finals = new Set(views.map((v) => v.status).filter((s) => FINAL.has(s)));
    if (finals.size > 1)
      found.push({ kind: 'status-regressed', approvalId, detail: `shown as ${[...finals].join(' and ')}` });
    for (const earlier of views)
      for (const later of views)
        if (
          earlier.host === later.host &&
          earlier.completedAt < later.invokedAt &&
          FINAL.has(earlier.status) &&
          !FINAL.has(later.status)
        )
          found.push({
            kind: 'status-regressed',
            approvalId,
            detail: `${earlier.host} showed ${earlier.status}, then ${later.status}`,
          });
  }
  return found;
}

export function checkSocketEvents(history: History): Anomaly[] {
  const found: Anomaly[] = [];
  const bySeq = new Map(history.log.map((e) => [e.seq, e]));
  const byConnection = new Map<string, SocketEventOp[]>();
  for (const op of ops(history, 'ws-event'))
    byConnection.set(op.connection, [...(byConnection.get(op.connection) ?? []), op]);
  for (const [connection, events] of byConnection) {
    let last = 0;
    for (const event of events) {
      const logged = bySeq.get(event.seq);
      if (logged?.type !== event.type)
        found.push({
          kind: 'event-not-in-log',
          detail: `${connection} delivered ${event.type} at seq ${event.seq}; the log has ${logged?.type ?? 'nothing'} there`,
        });
      if (event.seq <= last)
        found.push({
          kind: 'event-out-of-order',
          detail: `${connection} delivered seq ${event.seq} after seq ${last}`,
        });
      last = Math.max(last, event.seq);
    }
  }
  return found;
}

export function checkDeadlines(history: History): Anomaly[] {
  const found: Anomaly[] = [];
  const requested = new Map(
    history.log.filter((e) => e.type === 'approval.requested').map((e) => [approvalIdOf(e), e]),
  );
  for (const event of history.log) {
    const decidedBy = event.data.decidedBy as { via?: unknown } | undefined;
    if (event.type !== 'approval.decided' || decidedBy?.via !== 'timeout') continue;
    const approvalId = approvalIdOf(event);
    const deadline = requested.get(approvalId)?.data.deadline as { at?: string } | null | undefined;
    if (deadline?.at === undefined || Date.parse(event.at) < Date.parse(deadline.at))
      found.push({
        kind: 'deadline-early',
        ...(approvalId === undefined ? {} : { approvalId }),
        detail: `answered by its deadline at ${event.at}; the deadline was ${deadline?.at ?? 'not set'}`,
      });
  }
  return found;
}

export const CHECKS = [
  checkOneWinner,
  checkAppliedOnce,
  checkAcknowledgedKept,
  checkCliMatchesLog,
  checkStatusMonotone,
  checkSocketEvents,
  checkDeadlines,
] as const;

/** Every anomaly of the history; empty when it keeps every guarantee. */
export function checkHistory(history: History): Anomaly[] {
  return CHECKS.flatMap((check) => check(history));
}
