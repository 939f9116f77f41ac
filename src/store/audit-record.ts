// The audit trail's record format and the questions it can be asked, as plain types with nothing that
// needs Node: the store writes them (audit-chain.ts), the server and the `warden` command export them,
// and the browser's audit view reads them.
//
// Format versions (`v`): records of both stay in one chain — a record's hash covers its own text, so a
// newer Warden appends v2 records after v1 ones and the whole chain still verifies.
// - 1: the first format. An allow_always's `rules` are the rules the approval offered.
// - 2: adds `grant` (the scope of an allow_always, where its rules are kept, the settings file the CLI
//   writes them to), and an allow_always's `rules` are the rules granted — a person may have dropped or
//   narrowed some of those offered.
import type { DecidedBy, DecisionGrant } from './records.js';

export const AUDIT_FORMAT_VERSION = 2;
export type AuditFormatVersion = 1 | typeof AUDIT_FORMAT_VERSION;

/**
 * `endorsement`: the first allow of a two-person approval, which answered nobody by itself. `reminded` and
 * `escalated`: a route's steps while an approval waited (approvals/routes.ts).
 */
export type AuditKind =
  'genesis' | 'decision' | 'endorsement' | 'cancelled' | 'expired' | 'reminded' | 'escalated';
export type AuditOutcome = 'allow' | 'allow_always' | 'deny' | 'cancelled' | 'expired';
export const AUDIT_OUTCOMES = [
  'allow',
  'allow_always',
  'deny',
  'cancelled',
  'expired',
] as const satisfies readonly AuditOutcome[];

/** An allow_always's scope and where its rules went (the rules themselves are the record's `rules`). */
export type AuditGrant = Omit<DecisionGrant, 'rules'>;

export interface AuditRecord {
  v: AuditFormatVersion;
  /** 1, 2, 3… without gaps. */
  seq: number;
  /** The hash of record `seq - 1`; 64 zeros for the first. */
  prev: string;
  /** When the decision was recorded (the time of its event). */
  at: string;
  kind: AuditKind;
  /** The event of the log this record stands for; for the genesis record, the last event before it. */
  eventSeq: number;
  threadId: string | null;
  approvalId: string | null;
  runId: string | null;
  subagentId: string | null;
  tool: string | null;
  /** The tool input as the CLI asked for it. */
  input: Record<string, unknown> | null;
  /** SHA-256 of the canonical JSON of the input sent back to the CLI: the edited one, else `input`. */
  inputSha256: string | null;
  /** Who decided and through what; for cancellations and expiries, Warden itself (`via: 'host'`). */
  decidedBy: DecidedBy | null;
  outcome: AuditOutcome | null;
  /** The rule that decided (policy), or the rules an allow_always added. */
  rules: string[];
  /**
   * With allow_always (v2): how long its rules hold and where they are kept; null otherwise, and for an
   * allow_always whose decision did not say (made by a Warden older than v2 in the same fleet). v1
   * records have no `grant` member.
   */
  grant: AuditGrant | null;
  /** The policy's reason (`policy` decisions), the deny message, or why it was cancelled or expired. */
  reason: string | null;
  /** A deny that also stopped the turn. */
  interrupt: boolean;
  /** Set when the decision changed the input: both versions, as given and as sent. */
  edit: { original: Record<string, unknown>; edited: Record<string, unknown> } | null;
  /** A two-person approval's decision: who gave the first allow (its own `endorsement` record precedes). */
  endorsedBy?: DecidedBy;
  /** Only on the genesis record: what the chain covers. */
  note?: string;
}

/** A stored record: its canonical text as written and the hash recorded beside it. */
export interface AuditRow {
  seq: number;
  hash: string;
  text: string;
}

/** The events that get an audit record each (audit-log.ts writes them; verification looks for them). */
export const AUDITED_EVENT_TYPES: readonly string[] = [
  'permission.decided',
  'approval.endorsed',
  'approval.decided',
  'approval.cancelled',
  'approval.expired',
  'approval.reminded',
  'approval.escalated',
];

/** What the log says the trail must hold: its audited events, in order, and its last event. */
export interface LogFacts {
  readonly auditedEventSeqs: Iterable<number>;
  readonly lastEventSeq: number;
}

export type VerifyResult =
  | {
      ok: true;
      records: number;
      head: string;
      /**
       * The events of the log the trail was checked against: every decision from `fromEventSeq` (after
       * the genesis record's) through `throughEventSeq` (the log's last event) has its record. Absent
       * when only the chain was checked.
       */
      covers?: { fromEventSeq: number; throughEventSeq: number };
    }
  | { ok: false; records: number; seq: number; problem: string };

/** Which records to read. Filters compare the record's own fields; a record that does not parse matches. */
export interface AuditQuery {
  /** Records with a seq greater than this (default 0). */
  after?: number;
  /** Records with a seq less than this (default: none). */
  before?: number;
  /** `asc` (default): oldest first, as the chain runs; `desc`: newest first. */
  order?: 'asc' | 'desc';
  /** Records at or after this time (ISO 8601, compared as the records write it). */
  since?: string;
  /** Records of this thread. */
  threadId?: string;
  /** Records of this decider (`decidedBy.name`: `owner`, a token's name, `policy`, `warden`…). */
  decider?: string;
  outcome?: AuditOutcome;
  /** At most this many (default 500). */
  limit?: number;
}
