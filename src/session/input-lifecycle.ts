// When may the CLI's stdin be closed? Only when nothing can still ask anything. Closing it earlier makes
// every later permission request fail inside the CLI ("Stream closed") with no callback ever called.
//
// Everything here is tracked from the stream itself, so it works when the CLI sends no
// session_state_changed frames (older CLIs, custom spawners, an env that turns them off). When the CLI
// does send them, `idle` is one more condition, never the only one.

export type SessionState = 'idle' | 'running' | 'requires_action';

/**
 * After a background task reports, the CLI usually starts a root turn of its own (~60-100 ms later) to
 * tell the model. Without state frames nothing announces it, so input stays open for this long after a
 * notification unless the turn shows up (then its `result` is awaited) or a result arrives.
 */
export const DEFAULT_NOTIFICATION_TURN_GRACE_MS = 1500;

type Frame = Record<string, unknown>;

export class InputLifecycle {
  #openInputs = 0;
  #userTurnsAwaitingResult = 0;
  #cliTurnActive = false;
  #tasks = new Set<string>();
  #state: SessionState | undefined;
  #expectCliTurnUntil = 0;
  #lastResultAt: number | undefined;
  readonly #graceMs: number;
  readonly #now: () => number;

  constructor(options: { notificationTurnGraceMs?: number; now?: () => number } = {}) {
    this.#graceMs = options.notificationTurnGraceMs ?? DEFAULT_NOTIFICATION_TURN_GRACE_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The caller opened an input (the prompt, or a streamInput() call). */
  inputOpened(): void {
    this.#openInputs += 1;
  }

  inputClosed(): void {
    this.#openInputs = Math.max(0, this.#openInputs - 1);
  }

  userMessageWritten(): void {
    this.#userTurnsAwaitingResult += 1;
  }

  get lastResultAt(): number | undefined {
    return this.#lastResultAt;
  }

  get sawStateFrames(): boolean {
    return this.#state !== undefined;
  }

  /** Feed every message the CLI sends (control frames excluded). */
  observe(frame: Frame): void {
    const type = frame.type;
    if (type === 'result') return this.#onResult(frame);
    if (type === 'assistant' || type === 'stream_event') {
      if (frame.parent_tool_use_id == null) this.#onTopLevelActivity();
      return;
    }
    if (type !== 'system') return;
    switch (frame.subtype) {
      case 'init':
        return this.#onTopLevelActivity();
      case 'session_state_changed':
        if (frame.state === 'idle' || frame.state === 'running' || frame.state === 'requires_action')
          this.#state = frame.state;
        return;
      case 'task_started':
        if (typeof frame.task_id === 'string') this.#tasks.add(frame.task_id);
        return;
      case 'task_notification':
        if (typeof frame.task_id === 'string') this.#tasks.delete(frame.task_id);
        this.#expectCliTurnUntil = this.#now() + this.#graceMs;
        return;
      case 'background_tasks_changed':
        // A level signal: the full current list replaces what we had.
        if (Array.isArray(frame.tasks)) {
          this.#tasks = new Set(
            frame.tasks
              .map((task: unknown) => (task as { task_id?: unknown } | null)?.task_id)
              .filter((id): id is string => typeof id === 'string'),
          );
        }
        return;
      default:
        return;
    }
  }

  #onResult(frame: Frame): void {
    this.#lastResultAt = this.#now();
    const origin = frame.origin as { kind?: unknown } | undefined;
    const startedByCli = typeof origin?.kind === 'string' && origin.kind !== 'human';
    if (startedByCli || this.#userTurnsAwaitingResult === 0) {
      this.#cliTurnActive = false;
    } else {
      this.#userTurnsAwaitingResult -= 1;
      // A notification can be folded into a user turn: then no separate CLI turn follows.
      this.#expectCliTurnUntil = 0;
    }
    if (startedByCli) this.#expectCliTurnUntil = 0;
  }

  #onTopLevelActivity(): void {
    // Top-level output with no user turn open belongs to a turn the CLI started itself.
    if (this.#userTurnsAwaitingResult === 0) this.#cliTurnActive = true;
    this.#expectCliTurnUntil = 0;
  }

  /**
   * Whether stdin may close now, given the control requests in flight. Checked on every message, so it
   * allocates nothing; openReasons() says why not when someone needs to read it.
   */
  isSettled(controlInFlight: number): boolean {
    return (
      this.#openInputs === 0 &&
      this.#userTurnsAwaitingResult === 0 &&
      !this.#cliTurnActive &&
      this.#tasks.size === 0 &&
      controlInFlight === 0 &&
      (this.#state === undefined ? this.#expectCliTurnUntil <= this.#now() : this.#state === 'idle')
    );
  }

  /** When the notification grace ends, if it is what holds input open (no state frames). */
  get graceEndsAt(): number | undefined {
    return this.#state === undefined && this.#expectCliTurnUntil > this.#now()
      ? this.#expectCliTurnUntil
      : undefined;
  }

  /**
   * Why input must stay open, given the control requests in flight. Empty means stdin may close now.
   * `recheckAt` is set when the answer changes with time alone (the notification grace).
   */
  openReasons(controlInFlight: number): { reasons: string[]; recheckAt?: number } {
    const reasons: string[] = [];
    if (this.#openInputs > 0) reasons.push('the caller input is open');
    if (this.#userTurnsAwaitingResult > 0)
      reasons.push(`${this.#userTurnsAwaitingResult} turn(s) await a result`);
    if (this.#cliTurnActive) reasons.push('a turn started by the CLI awaits its result');
    if (this.#tasks.size > 0) reasons.push(`${this.#tasks.size} background task(s) running`);
    if (controlInFlight > 0) reasons.push(`${controlInFlight} control request(s) in flight`);
    if (this.#state !== undefined && this.#state !== 'idle') reasons.push(`the CLI reports ${this.#state}`);
    if (this.#state === undefined && this.#expectCliTurnUntil > this.#now()) {
      reasons.push('a task just finished; the CLI may start a turn to report it');
      return { reasons, recheckAt: this.#expectCliTurnUntil };
    }
    return { reasons };
  }
}
