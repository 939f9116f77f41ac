// The audit trail's records and their chain. One record per decision on a tool call (a person's, the
// policy's, a webhook link's), per cancellation and per expiry of an approval; each record names the
// SHA-256 of the record before it (`prev`), so a record that is changed, removed or inserted breaks the
// chain at that record. A record's hash is the SHA-256 (lower-case hex) of its canonical JSON
// (canonical-json.ts) encoded as UTF-8; the first record (seq 1) has `prev` = 64 zeros and is a
// `genesis` record saying from which event of the log on decisions are recorded. The record format and
// its versions are in audit-record.ts. Pure: no I/O.
import { createHash } from 'node:crypto';

import {
  AUDIT_FORMAT_VERSION,
  type AuditGrant,
  type AuditRecord,
  type AuditRow,
  type LogFacts,
  type VerifyResult,
} from './audit-record.js';
import { canonicalJson } from './canonical-json.js';
import type { StoredEvent } from './event-types.js';
import type { ApprovalRecord, DecidedBy, DecisionGrant } from './records.js';

export {
  AUDIT_FORMAT_VERSION,
  AUDIT_OUTCOMES,
  AUDITED_EVENT_TYPES,
  type AuditFormatVersion,
  type AuditGrant,
  type AuditKind,
  type AuditOutcome,
  type AuditRecord,
  type AuditRow,
  type LogFacts,
  type VerifyResult,
} from './audit-record.js';

export const GENESIS_PREV = '0'.repeat(64);

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function inputDigest(input: unknown): string {
  return sha256Hex(canonicalJson(input));
}

/** What every record starts with; `seq` and `prev` are filled when it is chained. */
export type AuditDraft = Omit<AuditRecord, 'v' | 'seq' | 'prev'>;

const EMPTY: Omit<AuditDraft, 'at' | 'kind' | 'eventSeq'> = {
  threadId: null,
  approvalId: null,
  runId: null,
  subagentId: null,
  tool: null,
  input: null,
  inputSha256: null,
  decidedBy: null,
  outcome: null,
  rules: [],
  grant: null,
  reason: null,
  interrupt: false,
  edit: null,
};

export function genesisDraft(at: string, lastEventSeq: number): AuditDraft {
  return {
    ...EMPTY,
    at,
    kind: 'genesis',
    eventSeq: lastEventSeq,
    note:
      lastEventSeq === 0
        ? 'The audit trail starts with the event log: every decision is recorded.'
        : `The audit trail starts here: decisions in events 1 to ${lastEventSeq} of the log were made before it existed and are recorded in the event log only.`,
  };
}

const HOST: DecidedBy = { name: 'warden', via: 'host' };

/**
 * The record an event stands for, or undefined when it is not a decision. `approval` is the approval the
 * event settles, as the projection holds it after the event.
 */
export function auditDraftOf(
  event: StoredEvent,
  approval: ApprovalRecord | undefined,
): AuditDraft | undefined {
  const base = { at: event.at, eventSeq: event.seq, threadId: event.threadId };
  if (event.type === 'permission.decided') {
    const { data } = event;
    return {
      ...EMPTY,
      ...base,
      kind: 'decision',
      runId: data.runId,
      subagentId: data.subagentId,
      tool: data.toolName,
      input: data.input,
      inputSha256: inputDigest(data.input),
      decidedBy: { name: 'policy', via: 'policy' },
      outcome: data.behavior,
      rules: data.rule === null ? [] : [data.rule],
      reason: `${data.source}: ${data.reason}`,
    };
  }
  if (approval === undefined) return undefined;
  if (event.type === 'approval.endorsed')
    return {
      ...approvalPart(approval, base),
      kind: 'endorsement',
      inputSha256: inputDigest(approval.input),
      decidedBy: event.data.decidedBy,
      outcome: 'allow',
      reason: `first of two allows (${approval.twoPerson ?? 'two-person rule'})`,
    };
  if (event.type === 'approval.decided') {
    const { data } = event;
    const edited = (data as { updatedInput?: unknown }).updatedInput;
    const editedInput = isRecord(edited) ? edited : undefined;
    return {
      ...approvalPart(approval, base),
      kind: 'decision',
      inputSha256: inputDigest(editedInput ?? approval.input),
      decidedBy: data.decidedBy ?? legacyDecider(data.by),
      outcome: data.behavior,
      ...grantPart(data.behavior === 'allow_always', data.grant, approval),
      reason: data.message,
      interrupt: data.interrupt,
      edit: editedInput === undefined ? null : { original: approval.input, edited: editedInput },
      ...(data.endorsedBy === undefined ? {} : { endorsedBy: data.endorsedBy }),
    };
  }
  if (event.type === 'approval.cancelled' || event.type === 'approval.expired') {
    const outcome = event.type === 'approval.cancelled' ? 'cancelled' : 'expired';
    return {
      ...approvalPart(approval, base),
      kind: outcome,
      inputSha256: inputDigest(approval.input),
      decidedBy: HOST,
      outcome,
      reason: event.data.reason,
    };
  }
  if (event.type === 'approval.reminded' || event.type === 'approval.escalated') {
    // A step of the approval's route: who may answer changed or was told again; nothing was decided.
    const reason =
      event.type === 'approval.reminded'
        ? `route ${event.data.route}: reminded, still unanswered`
        : `route ${event.data.route}: escalated to ${event.data.to.join(', ')}`;
    return {
      ...approvalPart(approval, base),
      kind: event.type === 'approval.reminded' ? 'reminded' : 'escalated',
      inputSha256: inputDigest(approval.input),
      decidedBy: HOST,
      reason,
    };
  }
  return undefined;
}

/**
 * The rules an allow_always added and where they went, as its decision says; a decision that does not
 * say (a Warden from before grants were recorded, in the same fleet) gives the rules the approval offered.
 */
function grantPart(
  always: boolean,
  grant: DecisionGrant | undefined,
  approval: ApprovalRecord,
): { rules: string[]; grant: AuditGrant | null } {
  if (!always) return { rules: [], grant: null };
  if (grant === undefined) return { rules: [...approval.alwaysAllowRules], grant: null };
  const { rules, scope, destination, settingsFile, sessionId } = grant;
  return { rules: [...rules], grant: { scope, destination, settingsFile, sessionId } };
}

/** Decisions recorded before deciders were named carry only `by`. */
export function legacyDecider(by: string): DecidedBy {
  if (by === 'policy') return { name: 'policy', via: 'policy' };
  if (by === 'webhook') return { name: 'webhook link', via: 'webhook' };
  if (by === 'timeout') return { name: 'timeout', via: 'timeout' };
  return { name: 'owner', via: 'api' };
}

function approvalPart(
  approval: ApprovalRecord,
  base: { at: string; eventSeq: number; threadId: string },
): Omit<AuditDraft, 'kind'> {
  return {
    ...EMPTY,
    ...base,
    approvalId: approval.id,
    runId: approval.runId,
    subagentId: approval.subagentId,
    tool: approval.toolName,
    input: approval.input,
  };
}

/** Chains `draft` after the record whose hash is `prev`: its canonical text and hash. */
export function chainRecord(
  draft: AuditDraft,
  seq: number,
  prev: string,
): { record: AuditRecord; row: AuditRow } {
  const record: AuditRecord = { v: AUDIT_FORMAT_VERSION, seq, prev, ...draft };
  const text = canonicalJson(record);
  return { record, row: { seq, hash: sha256Hex(text), text } };
}

/**
 * Checks the chain from its first record: seq 1, 2, 3… without gaps; each text is valid canonical JSON
 * whose `seq` is its own; its SHA-256 is the hash stored beside it; its `prev` is the previous record's
 * hash (64 zeros for the first). Stops at the first broken record and says what is wrong with it.
 */
export function verifyAuditRows(rows: Iterable<AuditRow>, log?: LogFacts): VerifyResult {
  let expectedSeq = 1;
  let prev = GENESIS_PREV;
  let count = 0;
  let genesisEventSeq = 0;
  const recordedEvents = new Set<number>();
  const broken = (seq: number, problem: string): VerifyResult => ({
    ok: false,
    records: count,
    seq,
    problem,
  });
  for (const row of rows) {
    if (row.seq !== expectedSeq)
      return broken(
        row.seq,
        row.seq > expectedSeq
          ? `records ${expectedSeq} to ${row.seq - 1} are missing`
          : 'its sequence number repeats',
      );
    let record: unknown;
    try {
      record = JSON.parse(row.text);
    } catch {
      return broken(row.seq, 'its content is not valid JSON');
    }
    if (!isRecord(record)) return broken(row.seq, 'its content is not a JSON object');
    let canonical: string;
    try {
      canonical = canonicalJson(record);
    } catch {
      return broken(row.seq, 'its content has no canonical JSON form');
    }
    if (canonical !== row.text)
      return broken(row.seq, 'its content is not in canonical form (it was rewritten)');
    const actual = sha256Hex(row.text);
    if (actual !== row.hash)
      return broken(
        row.seq,
        `its content does not match its hash (recorded ${row.hash}, content hashes to ${actual})`,
      );
    if (record.seq !== row.seq) return broken(row.seq, `its content says seq ${String(record.seq)}`);
    if (record.prev !== prev)
      return broken(
        row.seq,
        `its prev (${String(record.prev)}) is not the hash of record ${row.seq - 1} (${prev})`,
      );
    if (row.seq === 1 && record.kind !== 'genesis')
      return broken(row.seq, 'the first record is not a genesis record');
    if (typeof record.eventSeq === 'number') {
      if (row.seq === 1) genesisEventSeq = record.eventSeq;
      else recordedEvents.add(record.eventSeq);
    }
    prev = row.hash;
    expectedSeq += 1;
    count += 1;
  }
  if (count === 0) return broken(1, 'there is no record: the genesis record is missing');
  if (log === undefined) return { ok: true, records: count, head: prev };
  return checkAgainstLog(log, { count, head: prev, genesisEventSeq, recordedEvents });
}

/**
 * A chain whose tail was cut off is still a chain: only the log can tell that records are missing. Every
 * audited event after the genesis record's must have its record; the first one that has none is where
 * the trail falls short, and how many more are missing is said too.
 */
function checkAgainstLog(
  log: LogFacts,
  chain: { count: number; head: string; genesisEventSeq: number; recordedEvents: ReadonlySet<number> },
): VerifyResult {
  let first: number | undefined;
  let missing = 0;
  for (const seq of log.auditedEventSeqs) {
    if (seq <= chain.genesisEventSeq || chain.recordedEvents.has(seq)) continue;
    first ??= seq;
    missing += 1;
  }
  if (first !== undefined)
    return {
      ok: false,
      records: chain.count,
      seq: chain.count + 1,
      problem: `the log's event ${first} is a decision with no audit record (${missing} of the log's decisions after event ${chain.genesisEventSeq} are missing from the trail: records were removed)`,
    };
  return {
    ok: true,
    records: chain.count,
    head: chain.head,
    covers: { fromEventSeq: chain.genesisEventSeq + 1, throughEventSeq: log.lastEventSeq },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
