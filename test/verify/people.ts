// The simulated people of a verify run: each round one of them starts a thread on some host (its CLI asks
// to run a command; half the threads carry a deadline that denies), then two or three people race each
// other to decide the approval, each through a host of their own and after a pause of their own, and look
// at it again; once it is settled and the run ended, someone stops the thread. Every choice is drawn from
// the run's seed; every call is an operation of the history.
import { setTimeout as sleep } from 'node:timers/promises';

import type { FleetHost } from './fleet.js';
import type { HistoryRecorder } from './history.js';
import { call, decide, observeApprovals, type Json } from './http-client.js';
import { between, pick, type Random } from '../reliability/soak/random.js';

export const ASK_PROMPT = '[[verify]] make a file';
const FINAL = new Set(['allowed', 'denied', 'cancelled', 'expired']);

export interface Round {
  readonly threadId: string | undefined;
  readonly settled: boolean;
}

/** A host that is up now (any host when none is: its call then fails and is recorded as such). */
const someHost = (random: Random, hosts: readonly FleetHost[]): FleetHost =>
  pick(
    random,
    hosts.filter((host) => host.up),
  ) ?? pick(random, hosts)!;

/** Polls a random host until `found` gives something or `ms` pass. */
async function watch<T>(
  ms: number,
  random: Random,
  hosts: readonly FleetHost[],
  look: (host: FleetHost) => Promise<T | undefined>,
): Promise<T | undefined> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(250)) {
    const found = await look(someHost(random, hosts));
    if (found !== undefined) return found;
  }
  return undefined;
}

export async function playRound(
  lane: string,
  cwd: string,
  random: Random,
  hosts: readonly FleetHost[],
  history: HistoryRecorder,
  raceMs = 1500,
): Promise<Round> {
  const starter = someHost(random, hosts);
  const deadline = random() < 0.5 ? { deadlines: { afterMs: between(random, 1500, 6000) } } : {};
  let threadId: string | undefined;
  await history.action({ kind: 'send', client: `${lane}-starter`, host: starter.name }, async () => {
    const { status, json } = await call(starter, '/api/threads', {
      cwd,
      mode: 'supervised',
      prompt: ASK_PROMPT,
      ...deadline,
    });
    threadId = (json.thread as Json | undefined)?.id as string | undefined;
    return { status };
  });
  if (threadId === undefined) return { threadId, settled: false };
  const id = threadId;
  const asked = await watch(
    60_000,
    random,
    hosts,
    async (host) => (await observeApprovals(history, `${lane}-watcher`, host, id))?.[0],
  );
  if (asked === undefined) return { threadId, settled: false };
  const approvalId = String(asked.id);
  const people = between(random, 2, 3);
  await Promise.all(
    Array.from({ length: people }, async (_, i) => {
      const client = `${lane}-person${i}`;
      const host = pick(random, hosts)!;
      const behavior = random() < 0.7 ? 'allow' : 'deny';
      await sleep(between(random, 0, raceMs));
      await decide(history, client, host, id, approvalId, behavior);
      await observeApprovals(history, client, host, id);
    }),
  );
  const settled = await watch(60_000, random, hosts, async (host) => {
    const approvals = await observeApprovals(history, `${lane}-watcher`, host, id);
    if (approvals?.[0] === undefined || !FINAL.has(String(approvals[0].status))) return undefined;
    const { json } = await call(host, `/api/threads/${id}`);
    const runs = (json.runs ?? []) as Json[];
    return runs.length > 0 && runs.every((run) => run.status !== 'running') ? true : undefined;
  });
  const stopper = someHost(random, hosts);
  await history.action(
    { kind: 'stop', client: `${lane}-stopper`, host: stopper.name, threadId: id },
    async () => ({
      status: (await call(stopper, `/api/threads/${id}/stop`, {})).status,
    }),
  );
  return { threadId, settled: settled === true };
}
