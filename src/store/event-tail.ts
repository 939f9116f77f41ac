// The events a store committed last (or, on PostgreSQL, folded in from other hosts), kept as the rows
// `SELECT * FROM events` returns, so that the readers that follow the log at its edge (the server's live
// feed, the notification feed: each reads every event once, just after its commit) get them without a
// query. Only what a transaction committed is added (after it returned), and every event from `#from` on
// is here, so a read the tail covers returns exactly the rows the query would; one it does not cover (a
// replay from further back) is left to the database. Each read still builds fresh events from the rows
// (eventFromRow), as a query's result would be.
import type { Row } from './rows.js';

/** Rows kept: a page or two behind the edge for every reader; older reads go to the database. */
const KEPT = 4096;

export interface TailQuery {
  readonly after: number;
  readonly limit: number;
  readonly threadId?: string | undefined;
  readonly types?: readonly string[] | undefined;
}

export class EventTail {
  /** Committed events in seq order: every event with a seq at or above `#from`. */
  #rows: Row[] = [];

  /** Nothing until the first commit (the store reads nothing at open: a damaged page shows when read). */
  #from = Number.POSITIVE_INFINITY;

  /** The seq of the last row kept (0 when none is). */
  get through(): number {
    const last = this.#rows.at(-1);
    return last === undefined ? 0 : Number(last.seq);
  }

  /** Rows of events just committed, in seq order, each following the one before. */
  add(rows: readonly Row[]): void {
    if (rows.length === 0) return;
    // The first rows added, or rows that do not follow the last ones (events this store did not see
    // go by): the tail starts again with them, and reads from before them go to the database.
    const first = Number(rows[0]!.seq);
    if (this.#rows.length === 0 || first !== this.through + 1) {
      this.#rows = [];
      this.#from = first;
    }
    for (const row of rows) this.#rows.push(row);
    // Trimmed in halves, so that keeping the tail costs O(1) per event.
    if (this.#rows.length >= 2 * KEPT) {
      this.#rows = this.#rows.slice(-KEPT);
      this.#from = Number(this.#rows[0]!.seq);
    }
  }

  /** The rows the query would return, or undefined when some of them may be older than the tail. */
  read(query: TailQuery): Row[] | undefined {
    if (query.after + 1 < this.#from) return undefined;
    const rows = this.#rows;
    const types = query.types === undefined ? undefined : new Set(query.types);
    const found: Row[] = [];
    for (let index = this.#firstAfter(query.after); index < rows.length; index += 1) {
      if (found.length >= query.limit) break;
      const row = rows[index]!;
      if (query.threadId !== undefined && row.thread_id !== query.threadId) continue;
      if (types !== undefined && !types.has(row.type as string)) continue;
      found.push(row);
    }
    return found;
  }

  /** Index of the first row whose seq is above `after` (binary search: seqs increase). */
  #firstAfter(after: number): number {
    let low = 0;
    let high = this.#rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (Number(this.#rows[middle]!.seq) <= after) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
