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

export class TurnTracker {
  readonly #newId: () => string;
  readonly #hostRuns = new Map<string, HostRun>();
  readonly #toolUseOwners = new Map<string, string>();
  #current: { runId: string; cli: boolean } | undefined;
  #lastRunId: string | undefined;

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

  /** A user message went out with `uuid`; returns the status its run starts in. */
  hostSent(runId: string, uuid: string): 'queued' | 'running' {
    const busy = this.busy;
    this.#hostRuns.set(uuid, { runId, announced: !busy });
    return busy ? 'queued' : 'running';
  }

  onInit(userMessageUuids: readonly string[]): TurnStart {
    // A second init inside a turn (none seen on 2.1.328) changes nothing.
    if (this.#current !== undefined) return { startedHostRuns: [] };
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
