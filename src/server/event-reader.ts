// Bounded reads of the supervisor's event log for the HTTP routes: one page after a seq (GET …/events) and
// a thread's whole history (its timeline). Both read pages with readEvents(), which never waits for new
// events — following live is the WebSocket's job (ws-stream.ts).
import type { StoredEvent } from '../store/event-types.js';
import type { Supervisor } from '../supervisor/index.js';

/** The largest page the server asks the store for at once. */
export const PAGE = 500;

export interface EventPage {
  events: StoredEvent[];
  /** The seq of the last event returned, or `since` when there is none. */
  lastSeq: number;
  /** More events were there already. */
  more: boolean;
}

/** Up to `limit` events after `since` (optionally one thread's). */
export function readEventPage(
  supervisor: Supervisor,
  options: { since: number; threadId?: string; limit: number },
): EventPage {
  // One extra event says whether there are more, without a second read.
  const events = supervisor.readEvents({
    after: options.since,
    limit: options.limit + 1,
    ...(options.threadId === undefined ? {} : { threadId: options.threadId }),
  });
  const more = events.length > options.limit;
  if (more) events.length = options.limit;
  return { events, lastSeq: events.at(-1)?.seq ?? options.since, more };
}

/** Every event of one thread, page by page. */
export function readThreadEvents(supervisor: Supervisor, threadId: string): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (let after = 0; ;) {
    const page = supervisor.readEvents({ after, threadId, limit: PAGE });
    events.push(...page);
    if (page.length < PAGE) return events;
    after = page.at(-1)?.seq ?? after;
  }
}
