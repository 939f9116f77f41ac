// The commands other hosts asked a host to run (thread.command_requested) that it has not taken up yet:
// read by a host at open, so that a command committed while it was down runs once it is back.
import type { Statement } from './protocol.js';

export function pendingCommandsStatement(host: string): Statement {
  return {
    sql: `SELECT r.seq, r.thread_id, r.thread_seq, r.type, r.at, r.data, r.host
          FROM warden_events r
          WHERE r.type = 'thread.command_requested' AND (r.data::jsonb ->> 'to') = $1
            AND NOT EXISTS (
              SELECT 1 FROM warden_events d
              WHERE d.thread_id = r.thread_id AND d.seq > r.seq
                AND ((d.type = 'thread.command_done' AND (d.data::jsonb ->> 'requestId') = (r.data::jsonb ->> 'requestId'))
                  OR (d.type = 'run.created' AND (d.data::jsonb ->> 'runId') = (r.data::jsonb ->> 'requestId'))))
          ORDER BY r.seq`,
    params: [host],
  };
}
