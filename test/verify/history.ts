// A history of what the clients of a fleet did and saw, as operations with an invocation and a completion
// time (Date.now(), one clock: every client runs in the verify runner's process), and the event log the
// database holds at the end. The checker (checker.ts) proves the guarantees over the two together.

/** What a person asked a host for, over HTTP, and the answer (`status` 0: no answer, the call failed). */
export interface ActionOp {
  readonly kind: 'decide' | 'cancel' | 'stop' | 'send';
  readonly client: string;
  readonly host: string;
  readonly threadId?: string;
  readonly approvalId?: string;
  readonly behavior?: 'allow' | 'deny';
  readonly invokedAt: number;
  readonly completedAt: number;
  readonly status: number;
  /** For a decide answered 200: the approval's status in the answer (`pending` when it was an endorsement). */
  readonly answered?: string;
}

/** A status of an approval in an HTTP answer (a decide's or a list's). */
export interface ObservedStatusOp {
  readonly kind: 'observe';
  readonly client: string;
  readonly host: string;
  readonly approvalId: string;
  readonly status: string;
  readonly invokedAt: number;
  readonly completedAt: number;
}

/** An event a WebSocket connection delivered; `connection` names one connection (a reconnect is another). */
export interface SocketEventOp {
  readonly kind: 'ws-event';
  readonly connection: string;
  readonly host: string;
  readonly seq: number;
  readonly type: string;
  readonly completedAt: number;
}

/** What a CLI received for an approval's tool call: the tool ran (allow) or came back an error (deny). */
export interface CliReceivedOp {
  readonly kind: 'cli-received';
  readonly approvalId: string;
  readonly toolUseId: string;
  readonly behavior: 'allow' | 'deny';
  readonly completedAt: number;
}

export type Operation = ActionOp | ObservedStatusOp | SocketEventOp | CliReceivedOp;

/** The part of a stored event the checker reads. */
export interface LogEvent {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly data: Record<string, unknown>;
}

export interface History {
  readonly operations: readonly Operation[];
  /** The whole event log, in seq order, read after the run settled. */
  readonly log: readonly LogEvent[];
}

/** Collects operations as a run makes them. */
export class HistoryRecorder {
  readonly operations: Operation[] = [];

  record(op: Operation): void {
    this.operations.push(op);
  }

  /** Runs an HTTP call as one operation: invocation now, completion when it answers (or fails). */
  async action(
    base: Omit<ActionOp, 'invokedAt' | 'completedAt' | 'status' | 'answered'>,
    call: () => Promise<{ status: number; answered?: string }>,
  ): Promise<ActionOp> {
    const invokedAt = Date.now();
    let outcome: { status: number; answered?: string };
    try {
      outcome = await call();
    } catch {
      outcome = { status: 0 };
    }
    const op: ActionOp = { ...base, invokedAt, completedAt: Date.now(), ...outcome };
    this.record(op);
    return op;
  }
}
