// Commands for a thread that another host of the fleet runs. The host that takes the command commits a
// `thread.command_requested` naming the owner; the owner runs it when it folds that event in (the same
// follow() path that carries decisions), or at open for what was committed while it was down. Each runs
// once: a send becomes the run whose id is the request's id, the others are marked by a
// `thread.command_done` committed before they run; and within a process a request is taken up once.
import type { RemoteCommandArgs, RemoteCommandName, StoredEvent } from '../../store/event-types.js';
import type { EventDraft } from '../../store/event-types.js';
import type { SupervisorCore } from '../core.js';
import type { FleetMembership } from './fleet.js';

/** What a host answers for a command the thread's owner will run. */
export interface ForwardedCommand {
  readonly requestId: string;
  /** The host that runs the thread's CLI. */
  readonly host: string;
}

export type CommandRequest = Extract<StoredEvent, { type: 'thread.command_requested' }>;

export class RemoteCommands {
  readonly #core: SupervisorCore;
  readonly #fleet: FleetMembership;
  readonly #run: (request: CommandRequest) => Promise<void>;
  /** Requests taken up by this process: a notification and the sweep, or open and follow, meet here. */
  readonly #taken = new Set<string>();

  constructor(core: SupervisorCore, fleet: FleetMembership, run: (request: CommandRequest) => Promise<void>) {
    this.#core = core;
    this.#fleet = fleet;
    this.#run = run;
  }

  /**
   * Commits the command for the owner when another host runs the thread and its lease is live; returns
   * undefined otherwise (this host runs it, or its owner is gone: the caller does what it did before).
   */
  forward(
    threadId: string,
    command: RemoteCommandName,
    args: RemoteCommandArgs,
    withIt: readonly EventDraft[] = [],
  ): (ForwardedCommand & { event: CommandRequest }) | undefined {
    const owner = this.#fleet.ownerElsewhere(threadId);
    if (owner === undefined) return undefined;
    if (this.#fleet.listHosts().find((host) => host.name === owner)?.live !== true) return undefined;
    const requestId = this.#core.newId();
    const events = this.#core.commit(threadId, [
      ...withIt,
      {
        type: 'thread.command_requested',
        data: { requestId, command, args, by: this.#fleet.name, to: owner },
      },
    ]);
    const event = events.find((e): e is CommandRequest => e.type === 'thread.command_requested');
    if (event === undefined) throw new Error('The command request was not recorded');
    return { requestId, host: owner, event };
  }

  /** Committed events (this host's and, for its threads, the fleet's): requests for this host run. */
  onCommitted(events: readonly StoredEvent[]): void {
    for (const event of events)
      if (event.type === 'thread.command_requested' && event.data.to === this.#fleet.name) this.#take(event);
  }

  /** At open: what other hosts asked of this one while it was down. */
  resume(): void {
    for (const event of this.#fleet.pendingCommands())
      if (event.type === 'thread.command_requested') this.#take(event);
  }

  #take(request: CommandRequest): void {
    if (!this.#fleet.owns(request.threadId) || this.#taken.has(request.data.requestId)) return;
    this.#taken.add(request.data.requestId);
    this.#run(request).catch((error: unknown) =>
      this.#core.warnFailure(
        error,
        `Could not run the ${request.data.command} host ${request.data.by} asked for`,
      ),
    );
  }
}
