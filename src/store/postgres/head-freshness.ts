// When a PostgreSQL store must ask the server where the log head is before a read. The reads of one turn
// of the event loop ask once: what another process commits meanwhile is concurrent with them (nothing this
// host learns of it, a reply or a notification, can arrive before the turn ends), and the next turn asks
// again. A commit of this process in between, on this store or another one (two hosts of a fleet in one
// process), makes the next read ask.

/** Commits made by the stores of this process so far. */
const processCommits = { count: 0 };

export class HeadFreshness {
  /** processCommits' count when this store last learnt where the head is, in this turn; -1 after it. */
  #checkedAt = -1;

  /** A read may go without asking the server. */
  get fresh(): boolean {
    return this.#checkedAt === processCommits.count;
  }

  /** The store has just learnt where the head is: it asked, or it committed at the head. */
  checked(): void {
    if (this.#checkedAt === -1) setImmediate(() => (this.#checkedAt = -1));
    this.#checkedAt = processCommits.count;
  }

  /** A store of this process committed: the next read of every store asks. */
  static committed(): void {
    processCommits.count += 1;
  }
}
