// Parking: a thread's CLI that has had nothing to do for the idle period is stopped, resumably (the next
// send resumes its session in a new process), so a host holds CLIs only for the threads at work. Here:
// what counts as idle (a pure function of what the runtime knows), the option's validation, and the
// re-armable clock that asks. Timers never keep the process alive.

/** The idle period when none is given: ten minutes. */
export const DEFAULT_IDLE_PARK_MS = 10 * 60_000;

/** setTimeout's longest delay; the longest idle period accepted. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the thread's runtime knows when the idle period has passed. */
export interface IdleFacts {
  /** A CLI process is live for the thread. */
  readonly live: boolean;
  /** Something is already ending it: a stop, a park, a close letting go of it. */
  readonly ending: boolean;
  /** A re-attached CLI has not yet said which requests it still waits on. */
  readonly reconciling: boolean;
  /** A turn runs, or a message sent (queued included) awaits its result. */
  readonly turnBusy: boolean;
  /** Background subagents the supervisor saw start and not end. */
  readonly runningSubagents: number;
  /**
   * Why the CLI's own stream says it is not idle: background tasks it still lists, a turn it started
   * itself, its reported state (`running`, `requires_action`), a turn it may start after a task's report.
   */
  readonly cliBusy: readonly string[];
  /** Permission requests that reached the supervisor and are not answered yet. */
  readonly requestsInFlight: number;
  /** Approvals of the thread still pending (dialogs for a person included: questions, plans). */
  readonly pendingApprovals: number;
  /** Requests the supervisor sent the CLI that are not answered yet (interrupt, stop_task). */
  readonly operationsInFlight: number;
}

export type IdleVerdict = { readonly idle: true } | { readonly idle: false; readonly because: string };

/** Whether the thread's CLI may be parked now; when not, the first reason why. */
export function idleVerdict(facts: IdleFacts): IdleVerdict {
  const busy = (because: string): IdleVerdict => ({ idle: false, because });
  if (!facts.live) return busy('no CLI process');
  if (facts.ending) return busy('the CLI is already being stopped or let go');
  if (facts.reconciling) return busy('a re-attached CLI is being reconciled');
  if (facts.turnBusy) return busy('a turn is running or a message awaits its result');
  if (facts.runningSubagents > 0) return busy(`${facts.runningSubagents} subagent(s) running`);
  if (facts.pendingApprovals > 0) return busy(`${facts.pendingApprovals} approval(s) pending`);
  if (facts.requestsInFlight > 0) return busy(`${facts.requestsInFlight} permission request(s) in flight`);
  if (facts.operationsInFlight > 0)
    return busy(`${facts.operationsInFlight} request(s) to the CLI in flight`);
  const [cli] = facts.cliBusy;
  if (cli !== undefined) return busy(cli);
  return { idle: true };
}

/**
 * `SupervisorOptions.idleParkMs`: a whole number of milliseconds from 1 to 2^31-1; `0` or `Infinity`
 * never parks; absent, ten minutes. Returns the period, Infinity for never. Throws TypeError otherwise.
 */
export function validateIdleParkMs(value: unknown): number {
  if (value === undefined) return DEFAULT_IDLE_PARK_MS;
  if (value === 0 || value === Infinity) return Infinity;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS)
    throw new TypeError(
      `options.idleParkMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, or 0 or Infinity to never park`,
    );
  return value;
}

/**
 * One thread's idle clock. Every activity moves the start of the period (touch() only notes the time, so
 * a stream of frames costs no timer churn); once a whole period has passed since the last one, `onIdle`
 * is asked with the time idle. It returns true when it parked the CLI (the clock then rests until the
 * next touch), false to be asked again a period later.
 */
export class IdleClock {
  readonly #periodMs: number;
  readonly #onIdle: (idleMs: number) => boolean;
  #lastActivity = Date.now();
  #timer: NodeJS.Timeout | undefined;

  constructor(periodMs: number, onIdle: (idleMs: number) => boolean) {
    this.#periodMs = periodMs;
    this.#onIdle = onIdle;
  }

  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** Something happened: the idle period starts again from now. */
  touch(): void {
    this.#lastActivity = Date.now();
    if (this.#timer === undefined && Number.isFinite(this.#periodMs)) this.#arm(this.#periodMs);
  }

  /** No CLI to watch any more. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#check(), Math.max(1, Math.min(ms, MAX_TIMER_MS)));
    this.#timer.unref();
  }

  #check(): void {
    this.#timer = undefined;
    const idleMs = Date.now() - this.#lastActivity;
    if (idleMs < this.#periodMs) return this.#arm(this.#periodMs - idleMs);
    if (!this.#onIdle(idleMs)) this.#arm(this.#periodMs);
  }
}
