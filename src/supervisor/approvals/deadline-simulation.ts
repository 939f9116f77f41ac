// The deadlines of a proposed change over the recorded asks: which of them a deadline would have answered
// (and which way), because a person answered later than it or never did. Each ask that is still an ask
// under the change gets the deadline the live gate would have given it when it was made (`deadlineFor`,
// the same function, from the time it was asked); it counts when that deadline fell before the answer.
import { describeSimulation, type Simulation, type SimulatedRequest } from '../../policy/simulate.js';
import type { ThreadDeadlines } from '../../store/records.js';
import { deadlineFor } from './deadlines.js';

/** What a person's answer was, for an ask that had one. */
const ANSWERED: Partial<Record<SimulatedRequest['outcome'], 'allow' | 'deny'>> = {
  allowed: 'allow',
  denied: 'deny',
};

/**
 * `simulation` with the asks `deadlines` would have answered marked (`deadline`) and counted
 * (`summary.deadlines`). `cwdOf` gives a thread's cwd (its rules' paths are relative to it); `now` is
 * when the simulation runs: an ask still waiting counts once its deadline is past.
 */
export function answeredByDeadlines(
  simulation: Simulation,
  deadlines: ThreadDeadlines,
  cwdOf: (threadId: string) => string | undefined,
  now: number = Date.now(),
): Simulation {
  const counts = { decided: 0, allowed: 0, denied: 0, overturned: 0, unanswered: 0 };
  const requests = simulation.requests.map((request): SimulatedRequest => {
    if (request.then !== 'ask' || request.now !== 'ask') return request;
    const cwd = cwdOf(request.threadId);
    if (cwd === undefined) return request;
    // A protected or sensitive write is a person's to allow: no deadline may allow it (as live).
    const guarded = request.step === 'protected-write';
    const deadline = deadlineFor(
      deadlines,
      { toolName: request.toolName, input: request.input, cwd, guarded },
      Date.parse(request.at),
    );
    if (deadline === null) return request;
    const due = Date.parse(deadline.at);
    const answeredAt = request.settledAt === null ? undefined : Date.parse(request.settledAt);
    if (answeredAt === undefined ? now < due : answeredAt <= due) return request;
    counts.decided++;
    counts[deadline.behavior === 'allow' ? 'allowed' : 'denied']++;
    const answer = ANSWERED[request.outcome];
    if (answer === undefined) counts.unanswered++;
    else if (answer !== deadline.behavior) counts.overturned++;
    return { ...request, deadline };
  });
  const summary = { ...simulation.summary, deadlines: counts };
  return { summary, requests, text: describeSimulation(summary) };
}
