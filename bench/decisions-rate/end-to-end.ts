// One end-to-end run of the decisions-rate benchmark: a host (bench/supervisor-server/host.ts) with
// `agents` threads, each a scripted CLI keeping `inFlight` permission requests open; every
// `policyEvery`-th request is one the thread's rules allow (the policy answers it), the others wait for a
// person. The people are `clients` concurrent HTTP clients: a watcher learns of each approval from /ws, as
// a UI does, and the next free client POSTs its decision. Timed from the first request to the last reply
// any CLI got. With `policyEvery` 1 only the policy answers (no person is asked): its own rate, measured alone;
// the people's figures are then NaN.
import { availableParallelism, loadavg } from 'node:os';

import { createThread, turnOf, withHost, type HostMore } from '../benchmarks/supervisor-server.js';
import { machineCpuUs } from '../lib/machine.js';
import { percentile } from '../lib/stats.js';
import { EventClient, HttpClient } from '../supervisor-server/clients.js';
import type { MixedTurn, Script } from '../supervisor-server/scripted-cli.js';

export interface RateSizes {
  readonly agents: number;
  /** Requests per agent. */
  readonly requests: number;
  readonly inFlight: number;
  readonly policyEvery: number;
  readonly clients: number;
}

export interface RateSample {
  readonly loadAverage: number;
  /** Every answer the CLIs got (the policy's and people's), per second. */
  readonly decisionsPerSecond: number;
  readonly peoplePerSecond: number;
  readonly policyPerSecond: number;
  /** NaN where no person answered (the policy-only mode), as are the other people's figures. */
  readonly postP50Ms: number;
  readonly postP99Ms: number;
  /** From the POST's start to the CLI having the answer. */
  readonly decideToCliP50Ms: number;
  readonly decideToCliP99Ms: number;
  readonly policyP50Ms: number;
  readonly policyP99Ms: number;
  /** The host process's CPU over the run, per answer (µs). */
  readonly cpuPerDecisionUs: number;
  /** Every process's CPU over the run (the CLIs and clients too), per answer (µs); NaN without /proc. */
  readonly machineCpuPerDecisionUs: number;
  /** How many cores were busy on average over the run, of `cores`. */
  readonly busyCores: number;
  readonly cores: number;
}

export async function endToEndOnce(
  sizes: RateSizes,
  more: HostMore,
  signal: AbortSignal,
): Promise<RateSample> {
  const loadAverage = loadavg()[0] ?? 0;
  const script: Script = {
    kind: 'mixed',
    count: sizes.requests,
    inFlight: sizes.inFlight,
    policyEvery: sizes.policyEvery,
  };
  return withHost(
    script,
    signal,
    async (host) => {
      const http = new HttpClient(host.url, host.token, sizes.clients);
      const waiting: string[] = [];
      const toolUseOf = new Map<string, string>();
      const postedAt = new Map<string, number>();
      const postMs: number[] = [];
      const problems: string[] = [];
      let posting = 0;
      let allPosted: () => void = () => undefined;
      const post = (approvalId: string): Promise<void> => {
        postedAt.set(approvalId, performance.timeOrigin + performance.now());
        return http.post(`/api/approvals/${approvalId}/decision`, { behavior: 'allow' }).then(
          (reply) => {
            const status = (reply.body as { approval?: { status?: unknown } }).approval?.status;
            if (reply.status === 200 && status === 'allowed') postMs.push(reply.ms);
            else problems.push(`decision ${approvalId}: ${reply.status} ${JSON.stringify(reply.body)}`);
          },
          (error: unknown) => void problems.push(`decision ${approvalId}: ${String(error)}`),
        );
      };
      const pump = (): void => {
        while (posting < sizes.clients && waiting.length > 0) {
          posting += 1;
          void post(waiting.shift()!).finally(() => {
            posting -= 1;
            pump();
            if (posting === 0 && waiting.length === 0) allPosted();
          });
        }
      };
      const watcher = new EventClient(host.url, host.token, 0, (event) => {
        if (event.type !== 'approval.requested') return;
        toolUseOf.set(event.data.approvalId, event.data.toolUseId);
        waiting.push(event.data.approvalId);
        pump();
      });
      try {
        await watcher.opened;
        const cpuBefore = await host.cpu();
        const machineBefore = machineCpuUs() ?? Number.NaN;
        const wallBefore = performance.now();
        for (let agent = 0; agent < sizes.agents; agent += 1)
          await createThread(http, host.cwd, { allow: ['Bash(ls:*)'] });
        const message = await host.turn;
        const cpuUs = (await host.cpu()) - cpuBefore;
        const machineUs = (machineCpuUs() ?? Number.NaN) - machineBefore;
        const wallUs = (performance.now() - wallBefore) * 1000;
        const turns = message.reports.map((_, index) =>
          turnOf({ ...message, report: message.reports[index]! }, 'mixed'),
        ) satisfies MixedTurn[];
        await watcher.received(message.lastSeq);
        if (posting > 0 || waiting.length > 0) await new Promise<void>((resolve) => (allPosted = resolve));
        if (problems.length > 0) throw new Error(`${problems.length} decisions failed, e.g. ${problems[0]}`);
        const notAllowed = turns.flatMap((turn) => turn.notAllowed);
        if (notAllowed.length > 0)
          throw new Error(`${notAllowed.length} replies were not an allow, e.g. ${notAllowed[0]}`);
        const policyMs = turns.flatMap((turn) => turn.policyLatenciesMs);
        const answeredAt = Object.assign({}, ...turns.map((turn) => turn.answeredAt)) as Record<
          string,
          number
        >;
        const decideToCli: number[] = [];
        for (const [approvalId, at] of postedAt) {
          const heard = answeredAt[toolUseOf.get(approvalId) ?? ''];
          if (heard === undefined) throw new Error(`no CLI heard the answer to ${approvalId}`);
          decideToCli.push(heard - at);
        }
        const total = sizes.agents * sizes.requests;
        if (policyMs.length + decideToCli.length !== total)
          throw new Error(`${policyMs.length + decideToCli.length} answers for ${total} requests`);
        // Nearest-rank percentiles; none where nobody was asked (the policy-only mode).
        const pct = (values: number[], p: number): number =>
          values.length === 0 ? Number.NaN : percentile(values, p);
        const seconds =
          (Math.max(...turns.map((turn) => turn.lastReplyAt)) -
            Math.min(...turns.map((turn) => turn.firstRaisedAt))) /
          1000;
        return {
          loadAverage,
          decisionsPerSecond: total / seconds,
          peoplePerSecond: decideToCli.length / seconds,
          policyPerSecond: policyMs.length / seconds,
          postP50Ms: pct(postMs, 50),
          postP99Ms: pct(postMs, 99),
          decideToCliP50Ms: pct(decideToCli, 50),
          decideToCliP99Ms: pct(decideToCli, 99),
          policyP50Ms: pct(policyMs, 50),
          policyP99Ms: pct(policyMs, 99),
          cpuPerDecisionUs: cpuUs / total,
          machineCpuPerDecisionUs: machineUs / total,
          busyCores: machineUs / wallUs,
          cores: availableParallelism(),
        };
      } finally {
        await watcher.close();
        http.close();
      }
    },
    { ...more, agents: sizes.agents },
  );
}
