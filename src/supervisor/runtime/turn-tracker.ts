// Which run does a CLI frame belong to? The CLI runs one root turn at a time: `system/init` opens it and
// `result` closes it. Host turns are recognised by the `uuid` we put on every user message (echoed in
// `init.user_message_uuids` and `result.user_message_uuid(s)`); a turn without them was started by the
// CLI itself (after a task notification), and its `result.origin.kind` says why. The tracker is pure: it
// decides, the runtime records.

interface HostRun {
  readonly runId: string;
  /** Its status is `running` in the store (it was sent while nothing ran, or its turn began). */
  announced: boolean;
}

export interface TurnStart {
  /** Host runs whose turn began now and that were `queued` until then. */
  startedHostRuns: string[];
  /** A turn the CLI started by itself: a new run with this id must be recorded. */
  cliRunId?: string;
}

export interface TurnEnd {
  /** Runs this result ends, with whether each was created for this result just now. */
  ended: { runId: string; created: boolean }[];
}

/** The tracker's state as the store can give it back to a host that re-attaches to a running CLI. */
export interface TrackerSnapshot {
  /** Host runs still waiting for their result, by the uuid of their message; `announced`: running. */
  readonly hostRuns: readonly {
    readonly uuid: string;
    readonly runId: string;
    readonly announced: boolean;
  }[];
  /** The run whose turn is in progress; `cli` when the CLI started it. */
  readonly current?: { readonly runId: string; readonly cli: boolean };
  readonly lastRunId?: string;
}

export class TurnTracker {
  readonly #newId: () => string;
  readonly #hostRuns = new Map<string, HostRun>();
  readonly #toolUseOwners = new Map<string, string>();
  #current: { runId: string; cli: boolean } | undefined;
  #lastRunId: string | undefined;
  /** Host messages whose run a malformed result ended: their real result, if one comes, is stale. */
  readonly #failedUuids = new Set<string>();
  /** A malformed result ended the turn in progress; its real result may still come before the next init. */
  #failedTurn = false;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  /** The run whose turn is in progress. Top-level messages and the root agent's requests belong to it. */
  get currentRunId(): string | undefined {
    return this.#current?.runId;
  }

  /** The most recent run that had a turn: the owner of last resort. */
  get lastRunId(): string | undefined {
    return this.#current?.runId ?? this.#lastRunId;
  }

  /** A turn is in progress or a host message awaits its result: the next message will queue. */
  get busy(): boolean {
    return this.#current !== undefined || this.#hostRuns.size > 0;
  }

  /**
   * Takes over the state an earlier host left (see TrackerSnapshot), before any frame is seen. The owners
   * of tool calls are not restored: a task is then owned by the turn in progress or the last one.
   */
  restore(snapshot: TrackerSnapshot): void {
    for (const { uuid, runId, announced } of snapshot.hostRuns)
      this.#hostRuns.set(uuid, { runId, announced });
    this.#current = snapshot.current === undefined ? undefined : { ...snapshot.current };
    this.#lastRunId = snapshot.lastRunId;
  }

  /** A user message went out with `uuid`; returns the status its run starts in. */
  hostSent(runId: string, uuid: string): 'queued' | 'running' {
    const busy = this.busy;
    this.#hostRuns.set(uuid, { runId, announced: !busy });
    return busy ? 'queued' : 'running';
  }

  onInit(userMessageUuids: readonly string[]): TurnStart {
    // A second init inside a turn (none seen on 2.1.328) changes nothing.
    if (this.#current !== undefined) return { startedHostRuns: [] };
    // Turns run one at a time: once the next one starts, the failed one's result can no longer come.
    this.#failedTurn = false;
    const matched = userMessageUuids
      .map((uuid) => this.#hostRuns.get(uuid))
      .filter((run) => run !== undefined);
    const first = matched[0];
    if (first !== undefined) {
      this.#current = { runId: first.runId, cli: false };
      const started = matched.filter((run) => !run.announced);
      for (const run of started) run.announced = true;
      return { startedHostRuns: started.map((run) => run.runId) };
    }
    const cliRunId = this.#newId();
    this.#current = { runId: cliRunId, cli: true };
    return { startedHostRuns: [], cliRunId };
  }

  onResult(userMessageUuids: readonly string[], originKind: string | undefined): TurnEnd {
    if (this.#isStale(userMessageUuids)) return { ended: [] };
    const ended: TurnEnd['ended'] = [];
    for (const uuid of userMessageUuids) {
      const run = this.#hostRuns.get(uuid);
      if (run === undefined) continue;
      this.#hostRuns.delete(uuid);
      ended.push({ runId: run.runId, created: false });
    }
    const current = this.#current;
    if (current !== undefined && !ended.some((e) => e.runId === current.runId)) {
      // A host turn that the result does not name stays open: the init was misread, not the result.
      if (current.cli || ended.length === 0) {
        ended.push({ runId: current.runId, created: false });
        if (!current.cli) this.#forgetHostRun(current.runId);
      }
    }
    if (ended.length === 0) {
      const cliStarted = originKind !== undefined && originKind !== 'human';
      const oldest = cliStarted ? undefined : this.#hostRuns.entries().next().value;
      if (oldest !== undefined) {
        this.#hostRuns.delete(oldest[0]);
        ended.push({ runId: oldest[1].runId, created: false });
      } else ended.push({ runId: this.#newId(), created: true });
    }
    this.#lastRunId = ended.at(-1)?.runId ?? this.#lastRunId;
    this.#current = undefined;
    return { ended };
  }

  /**
   * A result the supervisor cannot read ended the turn: the runs it names, else the turn in progress, end
   * (never a run still waiting for its turn), so nothing waits forever for a result that may never come.
   * If the CLI then sends a real result for that turn, it is ignored rather than given to another run.
   */
  onMalformedResult(userMessageUuids: readonly string[]): TurnEnd {
    const ended: TurnEnd['ended'] = [];
    for (const uuid of userMessageUuids) {
      const run = this.#hostRuns.get(uuid);
      if (run === undefined) continue;
      this.#hostRuns.delete(uuid);
      this.#failedUuids.add(uuid);
      ended.push({ runId: run.runId, created: false });
    }
    const current = this.#current;
    if (current !== undefined && ended.length === 0) {
      for (const [uuid, run] of this.#hostRuns) if (run.runId === current.runId) this.#failedUuids.add(uuid);
      if (!current.cli) this.#forgetHostRun(current.runId);
      ended.push({ runId: current.runId, created: false });
    }
    if (current !== undefined) this.#failedTurn = true;
    this.#lastRunId = ended.at(-1)?.runId ?? this.#lastRunId;
    this.#current = undefined;
    return { ended };
  }

  /** The real result of a turn a malformed result already ended. */
  #isStale(userMessageUuids: readonly string[]): boolean {
    if (userMessageUuids.length > 0 && userMessageUuids.every((uuid) => this.#failedUuids.has(uuid))) {
      for (const uuid of userMessageUuids) this.#failedUuids.delete(uuid);
      this.#failedTurn = false;
      return true;
    }
    if (this.#failedTurn && this.#current === undefined && userMessageUuids.length === 0) {
      this.#failedTurn = false;
      return true;
    }
    return false;
  }

  /** Tool calls of the root agent, so that a task started by one of them is owned by its run. */
  noteToolUses(runId: string, toolUseIds: readonly string[]): void {
    for (const id of toolUseIds) this.#toolUseOwners.set(id, runId);
  }

  ownerOfToolUse(toolUseId: string | undefined): string | undefined {
    return toolUseId === undefined ? undefined : this.#toolUseOwners.get(toolUseId);
  }

  #forgetHostRun(runId: string): void {
    for (const [uuid, run] of this.#hostRuns) if (run.runId === runId) this.#hostRuns.delete(uuid);
  }
}
