// 6. The supervisor and the server, Warden alone (the official SDK has neither, so there is no ratio):
// (a) approvals decided over HTTP with durable writes — the scripted CLI raises permission requests, a
// few in flight; a client learns of each from /ws and POSTs the decision on keep-alive connections; timed
// from the first request to the CLI's last reply; (b) events fanned out to 50 WebSocket clients — the
// scripted CLI writes assistant messages as fast as the supervisor logs them; timed from the first append
// to the last client having the last event, and every client must see every event once, in order.
// Each run is a fresh Supervisor and server in a Node process of their own (bench/supervisor-server/
// host.ts) on a fresh temporary data directory; the clients run here.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import type { StoredEvent } from '../../src/server/index.js';
import { formatBound } from '../lib/bounded.js';
import { runChild } from '../lib/child-run.js';
import { describeFailures, wardenFigureOf } from '../lib/figures.js';
import type { Benchmark, BenchContext, BenchmarkResult, Figure, TargetCheck } from '../lib/model.js';
import { failures, type Outcome } from '../lib/outcomes.js';
import { killRun, newRunMarker, RUN_MARKER_VARIABLE } from '../lib/processes.js';
import { repeat } from '../lib/repeat.js';
import { percentile } from '../lib/stats.js';
import { EventClient, HttpClient } from '../supervisor-server/clients.js';
import type { HostConfig, HostMessage } from '../supervisor-server/host.js';
import type { ApprovalsTurn, EventsTurn, Script, TurnReport } from '../supervisor-server/scripted-cli.js';
import { SUPERVISOR_SERVER_NOTES } from './findings.js';

const NAME = 'supervisor-server';
const TITLE = 'Supervisor and server';
const HOST = fileURLToPath(new URL('../supervisor-server/host.ts', import.meta.url));
const WARDEN_ONLY =
  'the official SDK has no supervisor, no event log and no server, so there is nothing to compare ' +
  'with: these are absolute figures, without a ratio.';

interface Sizes {
  readonly decisions: number;
  /** Permission requests the scripted CLI keeps open at once. */
  readonly inFlight: number;
  /** Concurrent decision POSTs (and keep-alive connections). */
  readonly connections: number;
  readonly events: number;
  readonly clients: number;
  /** Text per assistant message. */
  readonly textBytes: number;
}

interface ApprovalsSample {
  readonly decisionsPerSecond: number;
  readonly postP50Ms: number;
  readonly postP99Ms: number;
  readonly replyP50Ms: number;
  readonly replyP99Ms: number;
  readonly cpuPerDecisionUs: number;
}

interface EventsSample {
  readonly deliveredPerSecond: number;
  readonly appendedPerSecond: number;
  readonly endLagMs: number;
  readonly maxLagMs: number;
  readonly cpuPerEventUs: number;
  /** Times a client fell more than the server's buffer behind, was cut off and connected again. */
  readonly reconnects: number;
}

export interface Host {
  readonly url: string;
  readonly token: string;
  /** An existing directory to give new threads. */
  readonly cwd: string;
  /** The scripted CLI's report, once its turn has ended. */
  readonly turn: Promise<Extract<HostMessage, { event: 'turn' }>>;
  /** The host process's CPU time so far (µs). */
  cpu(): Promise<number>;
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  // Rejected when the host fails; whoever awaits it sees that, nobody else must.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** What else a run's host is given: its store, its threads, another tree's host, Node flags. */
export interface HostMore extends Omit<Partial<HostConfig>, 'dataDir' | 'script'> {
  readonly hostScript?: string;
  readonly nodeFlags?: readonly string[];
}

/**
 * Starts the host on a fresh data directory, runs `body` against it, then ends it: its stdin closes, it
 * closes the server and the supervisor and exits (bounded at 10 s, then killed), the directory goes.
 */
export async function withHost<T>(
  script: Script,
  signal: AbortSignal,
  body: (host: Host) => Promise<T>,
  more: HostMore = {},
): Promise<T> {
  const marker = newRunMarker();
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-server-'));
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const { hostScript = HOST, nodeFlags = [], ...rest } = more;
  const config: HostConfig = { ...rest, dataDir: join(dir, 'data'), script };
  const stdin = new PassThrough();
  const ready = deferred<{ url: string; token: string }>();
  const turn = deferred<Extract<HostMessage, { event: 'turn' }>>();
  const cpuWaiters: Deferred<number>[] = [];
  const child = runChild({
    script: hostScript,
    args: [JSON.stringify(config)],
    nodeFlags,
    env: { ...process.env, [RUN_MARKER_VARIABLE]: marker },
    signal,
    stdin,
    onMessage: (raw) => {
      const message = raw as unknown as HostMessage;
      if (message.event === 'ready') ready.resolve(message);
      else if (message.event === 'turn') turn.resolve(message);
      else cpuWaiters.shift()?.resolve(message.us);
    },
  });
  const exited = child.then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  void exited.then((error) => {
    const failure = error ?? new Error('the host exited before it was told to');
    ready.reject(failure);
    turn.reject(failure);
    for (const waiter of cpuWaiters.splice(0)) waiter.reject(failure);
  });
  // At the bound the caller moves on without waiting for this run (and the session may end right after):
  // the host and the directory go at once, from the abort itself.
  const cleanUp = (): void => {
    killRun(marker);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  signal.addEventListener('abort', cleanUp, { once: true });
  let result: { value: T } | undefined;
  let failure: unknown;
  try {
    const { url, token } = await ready.promise;
    const value = await body({
      url,
      token,
      cwd,
      turn: turn.promise,
      cpu() {
        const waiter = deferred<number>();
        cpuWaiters.push(waiter);
        stdin.write('cpu\n');
        return waiter.promise;
      },
    });
    result = { value };
  } catch (error) {
    failure = error;
  }
  stdin.end();
  const ended = await Promise.race([
    exited.then((error) => error ?? 'exited'),
    delay(10_000, 'stuck' as const, { ref: false }),
  ]);
  signal.removeEventListener('abort', cleanUp);
  cleanUp();
  // A failure of the run itself takes precedence over one of the shutdown.
  if (result === undefined) throw failure;
  if (ended === 'stuck') throw new Error('the host did not close within 10 s');
  if (ended !== 'exited') throw ended;
  return result.value;
}

export function turnOf<K extends TurnReport['kind']>(
  message: Extract<HostMessage, { event: 'turn' }>,
  kind: K,
): Extract<TurnReport, { kind: K }> {
  if (message.problems.length > 0) throw new Error(`the host reported ${message.problems.join('; ')}`);
  if (message.report.kind !== kind) throw new Error(`expected a ${kind} turn, got ${message.report.kind}`);
  return message.report as Extract<TurnReport, { kind: K }>;
}

export async function createThread(
  http: HttpClient,
  cwd: string,
  rules?: { allow: string[] },
): Promise<void> {
  const created = await http.post('/api/threads', {
    cwd,
    mode: 'supervised',
    prompt: 'go',
    ...(rules === undefined ? {} : { rules }),
  });
  if (created.status !== 201)
    throw new Error(`POST /api/threads: ${created.status} ${JSON.stringify(created.body)}`);
}

async function approvalsOnce(sizes: Sizes, signal: AbortSignal): Promise<ApprovalsSample> {
  const script: Script = { kind: 'approvals', count: sizes.decisions, inFlight: sizes.inFlight };
  return withHost(script, signal, async (host) => {
    const http = new HttpClient(host.url, host.token, sizes.connections);
    const waiting: string[] = [];
    const posting = new Set<Promise<void>>();
    const postMs: number[] = [];
    const problems: string[] = [];
    const post = (approvalId: string): Promise<void> =>
      http.post(`/api/approvals/${approvalId}/decision`, { behavior: 'allow' }).then(
        (reply) => {
          const status = (reply.body as { approval?: { status?: unknown } }).approval?.status;
          if (reply.status === 200 && status === 'allowed') postMs.push(reply.ms);
          else problems.push(`decision ${approvalId}: ${reply.status} ${JSON.stringify(reply.body)}`);
        },
        (error: unknown) => void problems.push(`decision ${approvalId}: ${String(error)}`),
      );
    const pump = (): void => {
      while (posting.size < sizes.connections && waiting.length > 0) {
        const sent = post(waiting.shift()!).finally(() => {
          posting.delete(sent);
          pump();
        });
        posting.add(sent);
      }
    };
    // The client learns of each approval as a UI does: from the event stream.
    const watcher = new EventClient(host.url, host.token, 0, (event) => {
      if (event.type !== 'approval.requested') return;
      waiting.push(event.data.approvalId);
      pump();
    });
    try {
      await watcher.opened;
      await createThread(http, host.cwd);
      const message = await host.turn;
      const turn: ApprovalsTurn = turnOf(message, 'approvals');
      await watcher.received(message.lastSeq);
      while (posting.size > 0) await Promise.all(posting);
      if (problems.length > 0) throw new Error(`${problems.length} decisions failed, e.g. ${problems[0]}`);
      if (turn.notAllowed.length > 0)
        throw new Error(
          `the CLI got ${turn.notAllowed.length} replies that were not an allow, e.g. ${turn.notAllowed[0]}`,
        );
      if (postMs.length !== sizes.decisions || turn.latenciesMs.length !== sizes.decisions)
        throw new Error(
          `${postMs.length} decisions posted and ${turn.latenciesMs.length} replies for ${sizes.decisions} requests`,
        );
      return {
        decisionsPerSecond: sizes.decisions / ((turn.lastReplyAt - turn.firstRaisedAt) / 1000),
        postP50Ms: percentile(postMs, 50),
        postP99Ms: percentile(postMs, 99),
        replyP50Ms: percentile(turn.latenciesMs, 50),
        replyP99Ms: percentile(turn.latenciesMs, 99),
        cpuPerDecisionUs: turn.cpuUs / sizes.decisions,
      };
    } finally {
      await watcher.close();
      http.close();
    }
  });
}

/** What one event client saw of the burst. */
interface Reader {
  readonly client: EventClient;
  /** The burst index expected next. */
  next: number;
  /** When the last message of the burst arrived (wall clock, ms). */
  lastAt: number;
  /** The largest (arrival − `at`) over the burst, ms. */
  maxLagMs: number;
  failure: string | undefined;
}

async function eventsOnce(sizes: Sizes, signal: AbortSignal): Promise<EventsSample> {
  const script: Script = { kind: 'events', count: sizes.events, textBytes: sizes.textBytes };
  return withHost(script, signal, async (host) => {
    const http = new HttpClient(host.url, host.token, 1);
    const readers: Reader[] = [];
    const onEvent = (reader: Reader, event: StoredEvent, receivedAt: number): void => {
      if (event.type !== 'message.assistant') return;
      const block = event.data.blocks[0];
      const index = block?.type === 'text' ? Number(/^#(\d+) /.exec(block.text)?.[1]) : Number.NaN;
      if (index !== reader.next) reader.failure ??= `expected message #${reader.next}, got #${index}`;
      reader.next += 1;
      // `at` is the commit's Date (ms resolution): compare it with the same clock.
      reader.maxLagMs = Math.max(reader.maxLagMs, Date.now() - Date.parse(event.at));
      if (index === sizes.events - 1) reader.lastAt = receivedAt;
    };
    for (let index = 0; index < sizes.clients; index += 1) {
      const reader: Reader = {
        client: new EventClient(host.url, host.token, 0, (event, at) => onEvent(reader, event, at)),
        next: 0,
        lastAt: Number.NaN,
        maxLagMs: 0,
        failure: undefined,
      };
      readers.push(reader);
    }
    try {
      await Promise.all(readers.map((reader) => reader.client.opened));
      await createThread(http, host.cwd);
      const message = await host.turn;
      const turn: EventsTurn = turnOf(message, 'events');
      await Promise.all(readers.map((reader) => reader.client.received(message.lastSeq)));
      const cpuUs = (await host.cpu()) - turn.cpuAtFirstAppendUs;
      const wrong = readers.filter((reader) => reader.failure !== undefined || reader.next !== sizes.events);
      if (wrong.length > 0)
        throw new Error(
          `${wrong.length} of ${sizes.clients} clients did not get every message once, in order: ` +
            (wrong[0]!.failure ?? `${wrong[0]!.next} of ${sizes.events}`),
        );
      const lastDelivered = Math.max(...readers.map((reader) => reader.lastAt));
      return {
        deliveredPerSecond: sizes.events / ((lastDelivered - turn.firstAppendAt) / 1000),
        appendedPerSecond: sizes.events / ((turn.lastAppendAt - turn.firstAppendAt) / 1000),
        endLagMs: lastDelivered - turn.lastAppendAt,
        maxLagMs: Math.max(...readers.map((reader) => reader.maxLagMs)),
        cpuPerEventUs: cpuUs / sizes.events,
        reconnects: readers.reduce((sum, reader) => sum + reader.client.reconnects, 0),
      };
    } finally {
      await Promise.all(readers.map((reader) => reader.client.close()));
      http.close();
    }
  });
}

function target(
  approvals: readonly Outcome<ApprovalsSample>[],
  events: readonly Outcome<EventsSample>[],
  figures: readonly Figure[],
): TargetCheck {
  const failed = [...failures(approvals), ...failures(events)];
  const ran = approvals.length + events.length;
  const median = (id: string, digits: number): string =>
    figures
      .find((figure) => figure.id === id)
      ?.warden?.median.toLocaleString('en-US', { maximumFractionDigits: digits }) ?? 'n/a';
  const met = ran === 0 ? undefined : failed.length === 0;
  return {
    target: 'every decision reaches the CLI; every WebSocket client gets every event exactly once, in order',
    met,
    standing:
      `${median('approvals-rate', 0)} decisions/s over HTTP (POST p99 ${median('approvals-post-p99', 1)} ms); ` +
      `${median('events-rate', 0)} events/s to each of the clients (slowest client ${median('events-end-lag', 0)} ms ` +
      `behind at the end); ${failed.length === 0 ? 'no run failed' : `${failed.length} of ${ran} runs failed`}`,
    ...(met === false ? { gap: `failed runs: ${describeFailures(failed)}` } : {}),
  };
}

export const supervisorServerBenchmark: Benchmark = {
  name: NAME,
  title: TITLE,
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const runs = context.quick ? 2 : 3;
    const sizes: Sizes = {
      decisions: context.quick ? 300 : 2000,
      inFlight: 8,
      connections: 4,
      events: context.quick ? 2000 : 20_000,
      clients: 50,
      textBytes: 200,
    };
    const boundMs = 120_000;
    const approvals = await repeat({
      label: `${NAME}, approvals`,
      runs,
      warmup: 1,
      boundMs,
      run: (signal) => approvalsOnce(sizes, signal),
      describe: (sample) =>
        `${sample.decisionsPerSecond.toFixed(0)} decisions/s, POST p50 ${sample.postP50Ms.toFixed(2)} ms ` +
        `p99 ${sample.postP99Ms.toFixed(2)} ms, server CPU ${sample.cpuPerDecisionUs.toFixed(0)} µs/decision`,
      log: context.log,
    });
    const events = await repeat({
      label: `${NAME}, events`,
      runs,
      warmup: 1,
      boundMs,
      run: (signal) => eventsOnce(sizes, signal),
      describe: (sample) =>
        `${sample.deliveredPerSecond.toFixed(0)} events/s to all (appended ${sample.appendedPerSecond.toFixed(0)}/s), ` +
        `end lag ${sample.endLagMs.toFixed(0)} ms, max lag ${sample.maxLagMs.toFixed(0)} ms, ` +
        `server CPU ${sample.cpuPerEventUs.toFixed(0)} µs/event, ${sample.reconnects} reconnects`,
      log: context.log,
    });
    const a = `${sizes.decisions.toLocaleString('en-US')} approvals`;
    const e = `${sizes.events.toLocaleString('en-US')} events × ${sizes.clients} clients`;
    const figures: Figure[] = [
      wardenFigureOf(
        {
          id: 'approvals-rate',
          label: `${a}: decided end to end`,
          unit: 'decisions/s',
          better: 'higher',
          digits: 0,
        },
        approvals,
        (s) => s.decisionsPerSecond,
      ),
      wardenFigureOf(
        {
          id: 'approvals-post-p50',
          label: `${a}: decision POST p50`,
          unit: 'ms',
          better: 'lower',
          digits: 2,
        },
        approvals,
        (s) => s.postP50Ms,
      ),
      wardenFigureOf(
        {
          id: 'approvals-post-p99',
          label: `${a}: decision POST p99`,
          unit: 'ms',
          better: 'lower',
          digits: 2,
        },
        approvals,
        (s) => s.postP99Ms,
      ),
      wardenFigureOf(
        {
          id: 'approvals-reply-p50',
          label: `${a}: request → reply p50, as the CLI sees it`,
          unit: 'ms',
          better: 'lower',
          digits: 2,
        },
        approvals,
        (s) => s.replyP50Ms,
      ),
      wardenFigureOf(
        {
          id: 'approvals-reply-p99',
          label: `${a}: request → reply p99, as the CLI sees it`,
          unit: 'ms',
          better: 'lower',
          digits: 2,
        },
        approvals,
        (s) => s.replyP99Ms,
      ),
      wardenFigureOf(
        {
          id: 'approvals-cpu',
          label: `${a}: server process CPU per decision`,
          unit: 'µs',
          better: 'lower',
          digits: 0,
        },
        approvals,
        (s) => s.cpuPerDecisionUs,
      ),
      wardenFigureOf(
        {
          id: 'events-rate',
          label: `${e}: delivered to every client`,
          unit: 'events/s',
          better: 'higher',
          digits: 0,
        },
        events,
        (s) => s.deliveredPerSecond,
      ),
      wardenFigureOf(
        {
          id: 'events-append',
          label: `${e}: appended to the log`,
          unit: 'events/s',
          better: 'higher',
          digits: 0,
        },
        events,
        (s) => s.appendedPerSecond,
      ),
      wardenFigureOf(
        {
          id: 'events-end-lag',
          label: `${e}: slowest client behind the last append`,
          unit: 'ms',
          better: 'lower',
          digits: 0,
        },
        events,
        (s) => s.endLagMs,
      ),
      wardenFigureOf(
        {
          id: 'events-max-lag',
          label: `${e}: largest lag of any event at any client`,
          unit: 'ms',
          better: 'lower',
          digits: 0,
        },
        events,
        (s) => s.maxLagMs,
      ),
      wardenFigureOf(
        {
          id: 'events-cpu',
          label: `${e}: server process CPU per event`,
          unit: 'µs',
          better: 'lower',
          digits: 0,
        },
        events,
        (s) => s.cpuPerEventUs,
      ),
      wardenFigureOf(
        {
          id: 'events-reconnects',
          label: `${e}: clients cut off as too slow, then reconnected from their last event (all clients)`,
          unit: 'times',
          better: 'lower',
          digits: 0,
        },
        events,
        (s) => s.reconnects,
      ),
    ];
    return {
      name: NAME,
      title: TITLE,
      method:
        'Each run is a fresh Supervisor (SQLite in WAL mode with group commit: a commit writes the WAL, one ' +
        'fsync makes every commit before it durable, and nothing is acknowledged before it) on a ' +
        'new temporary data directory, behind `createServer()` on 127.0.0.1, in a Node process of its own; its ' +
        'CLI is a scripted stand-in for query() (bench/supervisor-server/scripted-cli.ts), and the clients run ' +
        'in the benchmark process. *Approvals*: in a thread in `supervised` mode, the scripted CLI raises ' +
        `${sizes.decisions.toLocaleString('en-US')} \`Bash\` permission requests, ${sizes.inFlight} in flight; ` +
        'a client learns of each from `/ws` (`approval.requested`) and POSTs `{"behavior":"allow"}` to ' +
        `\`/api/approvals/:id/decision\` (Bearer token, ${sizes.connections} concurrent requests on keep-alive ` +
        'connections). The rate is timed from the first request to the last reply the CLI got; the POST ' +
        'latency on the client, request → reply on the CLI. Each decision is two commits (requested, ' +
        `decided). *Events*: ${sizes.clients} \`ws\` clients on \`/ws?since=0\`; the scripted CLI writes ` +
        `${sizes.events.toLocaleString('en-US')} assistant messages (${sizes.textBytes} bytes of text each, ` +
        'one commit each) as fast as the supervisor reads them, 64 per turn of the event loop as from a pipe. ' +
        'Delivered rate: from the first append to the last client having the last message; every client ' +
        'checks that it got every event exactly once, in seq order (a run fails otherwise); a client the ' +
        'server cuts off for falling more than its 4 MiB buffer behind connects again from its last event, ' +
        'as the inbox does, and is counted. *Lag*: an ' +
        'event’s arrival minus its `at` (ms resolution). Server CPU: the host process, from the first ' +
        'request or append until the end (the scripted CLI is a small part of it). ' +
        `Each run is bounded at ${formatBound(boundMs)}; ${runs} runs after a warm-up.`,
      runsPerHost: runs,
      parameters: { ...sizes, boundMs },
      figures,
      targets: [target(approvals, events, figures)],
      notes: SUPERVISOR_SERVER_NOTES,
      wardenOnly: WARDEN_ONLY,
    };
  },
};
