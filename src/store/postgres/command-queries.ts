// The commands other hosts asked a host to run (thread.command_requested) that it has not taken up yet:
// read by a host at open, so that a command committed while it was down runs once it is back.
//
// Indexed (schema.ts, version 4): the requests to a host are found through a partial index on the
// request's `to`, and each one's mark of being done — a `thread.command_done` of its id, or the
// `run.created` of the run a send became — through partial indexes on those ids. The expressions and type
// tests below must stay those of the indexes, or the planner cannot use them and the query reads the log.
import type { Statement } from './protocol.js';

export function pendingCommandsStatement(host: string): Statement {
  return {
    sql: `SELECT r.seq, r.thread_id, r.thread_seq, r.type, r.at, r.data, r.host
          FROM warden_events r
          WHERE r.type = 'thread.command_requested' AND ((r.data::jsonb) ->> 'to') = $1
            AND NOT EXISTS (
              SELECT 1 FROM warden_events d
              WHERE d.type = 'thread.command_done'
                AND ((d.data::jsonb) ->> 'requestId') = ((r.data::jsonb) ->> 'requestId')
                AND d.thread_id = r.thread_id AND d.seq > r.seq)
            AND NOT EXISTS (
              SELECT 1 FROM warden_events d
              WHERE d.type = 'run.created'
                AND ((d.data::jsonb) ->> 'runId') = ((r.data::jsonb) ->> 'requestId')
                AND d.thread_id = r.thread_id AND d.seq > r.seq)
          ORDER BY r.seq`,
    params: [host],
  };
}
