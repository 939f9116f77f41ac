// What must hold after the soak and its chaos, read from the data directory once the last host has closed:
// the log's own invariants (contiguous seq and threadSeq, one settlement per approval, projections equal
// to a fresh fold); every approval a person got a 200 for is decided in the log exactly once, as that
// person said; every event a WebSocket client saw is in the log under the same seq, unchanged; and no CLI
// process or spool directory is left.
import { existsSync, readdirSync } from 'node:fs';

import { spoolRoot } from '../../../src/supervisor/durable/detached-cli.js';
import { Supervisor, type QueryFunction } from '../../../src/supervisor/index.js';
import { processesUsingHome } from '../../e2e/helpers/sdk-session.js';
import { assertLogInvariants, readAll } from '../supervisor-invariants.js';
import type { DecisionOutcome } from './people.js';
import type { SeenEvent } from './ws-clients.js';

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

const nothingStarts: QueryFunction = () => {
  throw new Error('the check opens the log only; nothing may start');
};

export async function checkLog(input: {
  dataDir: string;
  home: string;
  decisions: ReadonlyMap<string, readonly DecisionOutcome[]>;
  seen: ReadonlyMap<number, SeenEvent>;
}): Promise<{ checks: Check[]; events: number }> {
  const checks: Check[] = [];
  const processes = processesUsingHome(input.home);
  checks.push({
    name: 'no CLI process left once the host closed',
    ok: processes.length === 0,
    detail: processes.join(' '),
  });
  const root = spoolRoot(input.dataDir);
  const spools = existsSync(root) ? readdirSync(root) : [];
  checks.push({
    name: 'no spool directory left',
    ok: spools.length === 0,
    detail: spools.slice(0, 5).join(' '),
  });

  const sup = await Supervisor.open({ dataDir: input.dataDir, query: nothingStarts });
  try {
    checks.push({
      name: 'the closed host left nothing to recover',
      ok: Object.values(sup.recovered).every((n) => n === 0),
      detail: JSON.stringify(sup.recovered),
    });
    let invariants = '';
    try {
      assertLogInvariants(sup);
    } catch (error) {
      invariants = error instanceof Error ? error.message.slice(0, 500) : String(error);
    }
    checks.push({
      name: 'log invariants: contiguous seq/threadSeq, one settlement per approval, projections = fresh fold',
      ok: invariants === '',
      detail: invariants,
    });
    const events = readAll(sup);

    const decided = new Map<string, string[]>();
    for (const event of events)
      if (event.type === 'approval.decided')
        decided.set(event.data.approvalId, [
          ...(decided.get(event.data.approvalId) ?? []),
          event.data.behavior,
        ]);
    const wrong: string[] = [];
    let approved = 0;
    for (const [id, outcomes] of input.decisions) {
      const oks = outcomes.filter((o) => o.status === 200);
      if (oks.length === 0) continue;
      approved += 1;
      const inLog = decided.get(id) ?? [];
      if (oks.length !== 1 || inLog.length !== 1 || inLog[0] !== oks[0]!.behavior)
        wrong.push(`${id}: 200s ${JSON.stringify(oks)}, log ${JSON.stringify(inLog)}`);
    }
    checks.push({
      name: 'every approval that got a 200 is decided in the log exactly once, as the person said',
      ok: wrong.length === 0,
      detail: `${approved} approvals got a 200; ${wrong.length} wrong ${wrong.slice(0, 3).join(' | ')}`,
    });

    const differing: string[] = [];
    for (const [seq, seen] of input.seen) {
      const event = events[seq - 1];
      const stored =
        event === undefined
          ? undefined
          : {
              threadId: event.threadId,
              threadSeq: event.threadSeq,
              type: event.type,
              data: JSON.stringify(event.data),
            };
      if (event?.seq !== seq || JSON.stringify(stored) !== JSON.stringify(seen)) differing.push(String(seq));
    }
    checks.push({
      name: 'every event a WebSocket client saw is in the log with the same seq, thread, threadSeq, type and data',
      ok: differing.length === 0,
      detail: `${input.seen.size} distinct events seen; ${differing.length} differ ${differing.slice(0, 5).join(' ')}`,
    });
    return { checks, events: events.length };
  } finally {
    await sup.close({ stopAgents: true });
  }
}
