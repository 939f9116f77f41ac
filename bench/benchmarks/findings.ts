// What we know about why the figures are what they are, from profiles (`node --cpu-prof`) of the same
// workloads on the machine BENCHMARKS.md was generated on. The benchmarks attach these texts to their
// results; the numbers quoted here are from those profiles, not from the current run.

export const ORPHAN_BOUND =
  'What bounds Warden’s figure: after the exit it waits until stdout has been quiet for `quietAfterExitMs` ' +
  '(50 ms) while the reader is waiting — the orphan keeps the pipe open, so only silence can say the CLI’s ' +
  'last line is in — then kills the process group and scans /proc for marked descendants (a few ms) before ' +
  'ending. The official SDK ends only at stdout EOF, i.e. when the orphan dies: after 2 s here, never for an ' +
  'orphan that lives on.';

export const ORPHAN_GAP =
  'The quiet window (50 ms) is most of Warden’s figure. A shorter `quietAfterExitMs`, or ending as soon as ' +
  'stdout is quiet and the CLI’s process group has no member left but known orphans, would close the gap.';

export const PERMISSIONS_GAP =
  'A round trip is dominated by what both hosts share: two pipe hops and two processes waking each other on ' +
  'a 2-core machine. In a `--cpu-prof` of 50,000 round trips, the largest single item in both hosts is the ' +
  'synchronous pipe write of the reply (`writeUtf8String`, which also wakes the fake CLI): a third or more ' +
  'of the host’s non-idle CPU. Halving the official SDK’s p50 would need a round trip cheaper than the ' +
  'pipe hops and wake-ups alone, so no host-side change can meet this target. Warden’s own work per ' +
  'request is below the official SDK’s: the `control_request` envelope is checked by written-out field ' +
  'tests (zod runs only to describe a failure), the abort signal handed to `canUseTool` is made only if ' +
  'the callback reads it (the official SDK makes one per request, ~4 µs), the callback context is built ' +
  'without a loop. The p99 ' +
  'moves with the machine’s load (a delayed wake-up of either process).';

export const PERMISSIONS_PLACEMENT =
  'Why two placements: with the host and the fake CLI free to run on either of the 2 cores, each hop is a ' +
  'cross-core wake-up whose cost depends on where the scheduler put the two processes and what else runs, ' +
  'and the per-run p50 falls into two groups (about 50 µs and about 100 µs, for both hosts alike); the ' +
  'median then depends on how many runs land in each group. On one core each hop is a context switch, and ' +
  'the figure is the work of the two processes, steady from run to run. The target is checked on that one.';

export const THROUGHPUT_GAP =
  'Both hosts must JSON.parse every line, and that plus the garbage its objects leave is a floor they ' +
  'share. In a `--cpu-prof` of 200,000 × 1 KiB: Warden spends ~3.6 µs of CPU per message — line decoding ' +
  'and JSON.parse ~2.0 µs (`LineDecoder#decodeLine`, 390 ms inclusive), async hand-offs ~0.7 µs ' +
  '(microtasks, 136 ms), GC ~0.5 µs, bookkeeping the rest (`InputLifecycle.openReasons` runs for every ' +
  'frame, 18 ms). The official SDK spends ~4.7 µs: JSON.parse 367 ms, readline’s regex split 108 ms, string ' +
  'decoding, async generators, GC. Twice its rate means ≤ 2.35 µs per message, i.e. well under 0.5 µs for ' +
  'everything except parsing — less than one promise hand-off per message costs, and an async iterator ' +
  'needs at least one. For 8 MiB lines the floor is UTF-8 decoding plus JSON.parse of 8 MiB (~19 ms of ' +
  'Warden’s ~25 ms per message; the rest is joining the 64 KiB reads); the official SDK spends ~36 ms ' +
  '(readline’s regex over the whole line). What would narrow the gap: one async hand-off per message ' +
  'instead of two (today FrameQueue → the session’s reader loop → MessageQueue, with an `async push` ' +
  'awaited per message), no per-frame `openReasons`, and decoding a chunk’s complete lines with one ' +
  '`toString` (measured: ~4% less host CPU, so not applied).';

export const THROUGHPUT_LOAD_NOTE =
  'The rate depends on the machine’s load more than any other figure here. The fake CLI can only be one ' +
  'pipe buffer (64 KiB) ahead of the host; a host that empties the pipe sleeps until the CLI writes more, ' +
  'and on a machine with more runnable processes than cores every such wake-up waits for a core. Warden, ' +
  'which uses less CPU per message, empties the pipe sooner and so sleeps more often (*host waits*): ' +
  'on an idle machine that costs nothing, under heavy load its rate can fall below the official SDK’s in ' +
  'single runs (seen at load average 8–12 on 2 cores). Host CPU does not depend on this and is the steadier ' +
  'figure. Reading ahead further would not help: the limit is the pipe’s capacity, which Node cannot raise.';

export const MEMORY_GAP =
  'Most of a session’s memory is the same in both hosts: the ChildProcess object, its three pipes and ' +
  'their stream state. What a host can save is its own per-session objects.';

export const MEMORY_NOTE =
  'RSS moves in pages and with the allocator, so its per-session figure is the noisier of the two; the ' +
  'V8 heap figure (after full collections) is the steadier one.';

export const REAL_CLI_SHUTDOWN =
  'Wall time here is the CLI’s (startup ≈ 0.4 s, then the scripted conversation); a host adds milliseconds. ' +
  'One systematic cost Warden has and the official SDK has not: after the CLI exits, Warden kills what is ' +
  'left of its process group and scans /proc for marked descendants before it ends the iteration (its ' +
  'guarantee that a finished query leaves nothing running): 3–8 ms in an instrumented run with ~90 ' +
  'processes on the machine, more on a busy host. Ending the iteration first and cleaning up right after ' +
  'would remove it from the wall time, at the price of that guarantee.';

export const SUPERVISOR_SERVER_NOTES: readonly string[] = [
  'Where an approval’s time goes (a `--cpu-prof` of the host over 2,000 decisions; its main thread is busy ' +
    'all along, ~2.3 ms per decision under the profiler, before group commit): the two commits ' +
    '(`approval.requested`, `approval.decided`, each an fsync then) ~0.95 ms — then the durable floor, about ' +
    '1,000 decisions/s on this disk if nothing else ran, since the commits were sequential on the one ' +
    'thread; HTTP ~0.4 ms (with `overrideGlobalObjects: false` every request builds ' +
    "undici's Request, the 20-byte body is read " +
    'through a web ReadableStream (`readJsonBody`, ~0.13 ms) and the JSON reply is pumped out of a ' +
    'Response stream (`responseViaResponseObject`, ~0.16 ms)); streaming the two events to the watching ' +
    'client ~0.25 ms; SQLite reads ~0.15 ms (a decision reads its approval twice in `Supervisor#decide`, and ' +
    'each request reads its thread and recompiles its rules in `ThreadRuntime.policy()`); GC ~0.06 ms. The POST ' +
    'latency is mostly queueing: 4 requests in flight at ~560/s is ~7 ms by Little’s law, and the p50 is ' +
    'about that; the CLI’s request → reply likewise (8 in flight).',
  'Group commit: a commit writes the WAL without an fsync (synchronous=NORMAL) and one fsync on the thread ' +
    'pool makes every commit before it durable (src/store/wal-barrier.ts); a decision’s reply, the CLI’s ' +
    'answer and the events wait for it, and what is committed meanwhile shares the next one. The fsync is no ' +
    'longer paid on the main thread, once per commit. Measured in alternating runs of the code before and ' +
    'after on the same shared machine (2 cores, load average 10–16, so far from this page’s figures; ' +
    '2,000 events instead of 20,000): 42–67 → 83–175 decisions/s, POST p50 51–85 → 18–39 ms, p99 ' +
    '180–313 → 78–176 ms, server CPU per decision 4.2–4.9 → 2.9–3.9 ms; events to 50 clients 117–411 → ' +
    '453–906/s. What is left for ' +
    '2,000/s is CPU on the one thread (≤ 0.5 ms per decision): projection reads, the commit itself, HTTP ' +
    '(undici’s Request, web streams), the stream to the watching client.',
  'Where an event’s time goes: the commit (~0.3–0.4 ms with its fsync; bench/store.ts measures the store ' +
    'alone), then the fan-out. One live reader per server (src/server/live-feed.ts) reads each page of new ' +
    'events once and serialises each event once; every caught-up client gets the same frames, written with ' +
    'the connection corked so a page leaves in one write; a client still replaying reads the store on its ' +
    'own until it reaches the live edge. Before that, each client pulled its own copy from SQLite, ' +
    're-serialised it and wrote it with a syscall of its own (~14 µs per event per client): ~1,000 events/s ' +
    'to 50 clients at ~0.9 ms of server CPU per event, against ~3,300/s at ~0.2 ms since. Statements are ' +
    'prepared once per store (they were compiled on every read, ~0.16 ms per decision).',
  'The 50 clients share one Node process, on the same 2 cores as the server: lags include their own ' +
    "delays, and an event's `at` has millisecond resolution.",
];

export const PERMISSIONS_PARITY_GAP =
  'Checked on the steady one-core figures. A miss within the per-run ranges of both hosts is not a ' +
  'measured difference: rerun on a quieter machine before looking for a cause in the code.';

export const PERMISSIONS_COLD_NOTE =
  'Cold and steady: a new process spends its first few thousand requests on V8’s optimising compiler, on ' +
  'the same core (about 40 µs of host CPU per request for both hosts, against about 18 µs once warm). ' +
  'Warden’s interpreted path costs less than the official SDK’s (with `node --no-opt`, which leaves the ' +
  'optimising compiler out, its first 3,000 requests take 32–34 µs of CPU each against 37–40 µs), but it ' +
  'has more functions on the path for the compiler to optimise and re-optimise after a deoptimisation (in ' +
  'one cold run, `--trace-opt` counts 52 optimised functions after the first request against 39, ' +
  '`--trace-deopt` 15 bailouts against 8), so its cold CPU can be a few percent above the official’s. That ' +
  'is a one-time cost of about 10 ms per process; a long-lived host pays it once, which is why the targets ' +
  'are checked on the steady figures.';

export const DECISIONS_RATE_NOTES: readonly string[] = [
  'Where an answer’s time went before (a `--cpu-prof` of the host, SQLite, 4,000 answers, half the policy’s, ' +
    'half people’s; main-thread samples per answer, load average 5.5): 1.70 ms — the decision route’s check ' +
    'of who may answer 0.34 ms (it read the thread’s whole view, every run, subagent and approval, on each ' +
    'decision, so it grew with the thread); the commits (transaction, projector, audit chain) 0.28 ms; HTTP ' +
    '(Hono, the adapter’s web Request, the reply pumped out of a Response stream) 0.23 ms, and 0.09 ms more ' +
    'reading the 20-byte body through a ReadableStream; Node’s timers, microtasks and start-up 0.20 ms; idle ' +
    '0.11 ms; store reads 0.10 ms; GC 0.09 ms; policy verdicts 0.08 ms; the supervisor’s own work 0.07 ms; ' +
    'the WebSocket fan-out 0.05 ms; the barrier and publication 0.04 ms. Compiling a thread’s rules costs ' +
    '2 µs per answer (`compilePolicy`) — but what the policy keeps per compiled object was worked out again ' +
    'with every compile (see this round below).',
  'The fixes, measured in one run alternating the code before and after (`--tree`, same machine, load ' +
    'average 16–23 from other work, so far below an idle machine’s figures): the owner’s check reads ' +
    'nothing (a named decider’s still reads the approval and the thread); the decision’s body is read from ' +
    'Node’s request and its reply written to Node’s response (src/server/body.ts, direct-reply.ts); the ' +
    'decider reads the approval once. SQLite: 371 → 723 and 320 → 658 answers/s, POST p50 52.7 → 26.6 ms, ' +
    'p99 305 → 251 and 438 → 218 ms, decide → CLI p99 289 → 253 and 391 → 198 ms, host CPU 1,643 → 893 and ' +
    '1,498 → 911 µs per answer. Profiled in the same run (samples inflated by the load): 3.32 → 1.79 ms per ' +
    'answer; the check 0.57 → 0, HTTP and body 0.61 → 0.20 ms, policy verdicts 0.19 → 0.09 ms; what is left: ' +
    'the commits 0.44 ms, Node internals 0.30 ms, HTTP 0.20 ms, store reads 0.18 ms, GC 0.10 ms, policy ' +
    '0.09 ms, barrier 0.08 ms, supervisor 0.07 ms, fan-out 0.07 ms. PostgreSQL: 78 → 157 (round 1) and ' +
    '196 → 186 (round 2) answers/s, host CPU 4,656 → 3,018 and 3,665 → 2,884 µs per answer.',
  'PostgreSQL is bound by waiting, not by CPU: the store’s synchronous API blocks the host’s thread on a ' +
    'worker for every round trip (src/store/postgres/sync-channel.ts): ~5.1 of ~7.4 ms profiled per answer, ' +
    'mostly a read first asking whether the log moved (`#refresh`: the thread read for the policy, the ' +
    'approval read by the decider) and the flush behind durable().',
  'Earlier rounds, in short (each measured alternating with the code before it, `--tree`): the SQLite store serves the reads at the log’s edge from the rows it committed last (src/store/event-tail.ts) and keeps a thread’s row until the thread’s next commit; the commits a permission request waits on and people’s decisions are queued over the turn of the event loop and written in one transaction (Store.commitMany, each commit a savepoint: one that does not fit is refused alone; one PostgreSQL statement when the replica has every event; src/supervisor/durable/turn-commits.ts), and each caller hears of its commit only once that transaction has returned; on PostgreSQL the reads of one turn ask for the log head once and the events at the log’s edge come from the replica’s tail. Idle SQLite went 1,732 → 2,120 decisions/s, PostgreSQL 294 → 1,431/s (0.24 → 0.52× its store alone), SQLite stayed at 0.40–0.43× its store alone. Checkpoints are not the cost: wal_autocheckpoint from 1,000 to 10,000 pages moved the store alone within its noise.',
  'Where an answer’s time went at the start of this round (a `--cpu-prof` of the host beside the code after it, in one run of `npx tsx bench/decisions-rate.ts --store sqlite --rounds 1 --tree <checkout> --cpu-prof <dir>`, load 1.4; main-thread ms per answer over the run’s busy window, profiler included): 0.553 ms — HTTP 0.116 (Hono’s context, router and web Request, and the Response objects its middleware set headers on after the reply had been written; Node’s parser; the reply’s writev), the commits 0.191 (transaction and WAL writes 0.110, the audit chain 0.056, the projector 0.025), the supervisor 0.052, the policy 0.051 (a command’s bash parse three times per asked request: the verdict, its risks, its always-allow rules; the thread’s rules compiled on every request, so the runners they allow were worked out again each time), the WebSocket fan-out 0.031 (each event read back, parsed and serialised again), store reads 0.028 (the thread read back after every commit to it: each commit moved its last seq), GC 0.027, V8 0.019, idle 0.013.',
  'This round (src/server/decision-fast-path.ts, api-guard.ts; src/policy/policy.ts compiledPolicyFor; src/policy/shell-commands.ts; src/store/sqlite-store.ts, rows.ts, Store.readEventTexts, Supervisor.eventTexts, src/server/live-feed.ts; src/store/postgres/postgres-store.ts): the decision route is served by node:http ahead of Hono, through the same guard and route functions, with the same replies (a parity test sends every refusal both ways); a thread’s policy is compiled once per state of its rules; a command’s shell analysis is worked out once and shared, frozen; the SQLite store keeps a thread’s row across commits that change only its last seq; the live feed sends the events at the log’s edge as the JSON text their rows hold, a page at a time, without parsing and serialising each again; on PostgreSQL a notification of a commit the replica already has (this host’s own) no longer sends a head check. Profile after, in the same run: 0.452 ms per answer — HTTP 0.068, the commits 0.183 (0.113 + 0.050 + 0.020, as before within noise), supervisor 0.054, policy 0.033, store reads 0.018, GC 0.018, WebSocket 0.014, V8 0.012, idle 0.023.',
  'Before / after, alternating in the same runs (`--tree` against the code at the start of this round; load 0.4–1.4 at each run’s start, on a machine that ran slower this hour than in the hour before: the same code’s store alone did 3,461–4,542 decisions/s against up to 5,155/s then). SQLite, 4 rounds: 1,694 → 2,087, 1,639 → 2,134, 2,031 → 2,412, 2,079 → 2,463 decisions/s against 3,461, 3,590, 4,333 and 4,542/s for the store alone (0.49 → 0.60×, 0.46 → 0.59×, 0.47 → 0.56×, 0.46 → 0.54×); POST p50 15.8 → 13.4, 16.8 → 12.5, 13.2 → 11.5, 12.6 → 11.2 ms, p99 38.5 → 28.4, 37.3 → 35.8, 32.6 → 24.2, 30.0 → 24.9 ms; decide → CLI p99 35.4 → 26.1, 34.8 → 30.9, 31.1 → 22.5, 28.7 → 22.9 ms; host CPU 721 → 579, 797 → 613, 662 → 535, 657 → 535 µs per answer. PostgreSQL, 3 rounds: 1,219 → 1,567, 1,348 → 1,666, 1,331 → 1,680 decisions/s against 1,985, 2,671 and 2,904/s for the store alone (0.61 → 0.79×, 0.50 → 0.62×, 0.46 → 0.58×); POST p99 66.0 → 43.7, 49.5 → 34.7, 60.3 → 49.1 ms; host CPU 860 → 654, 818 → 668, 825 → 654 µs per answer. Policy only (`--policy-only`), 3 rounds: 5,533 → 6,323, 5,687 → 5,986, 4,994 → 5,881 answers/s, host CPU 255 → 203, 235 → 234, 264 → 219 µs per answer. Earlier the same hour, the changes one at a time against the commit before each: the decision route, compiled rules and kept thread rows together 1,998 → 2,338, 2,079 → 2,408, 2,159 → 2,442, 2,132 → 2,415/s; the event texts 2,067 → 2,194, 2,111 → 2,371, 2,183 → 2,278, 2,375 → 2,407/s.',
  'What is left is mostly the store’s own work, which the store alone pays too (the commits are 40% of an answer’s main-thread time), and what the OS charges for waking another thread or process on this virtual machine: each fsync handed to the thread pool costs the main thread ~68 µs to submit (452 for 4,000 answers, measured around the call), each reply and each WebSocket page a writev that wakes the client. PostgreSQL’s host waits on its connection worker for the turn’s one statement (0.19 ms per answer profiled): the Store API is synchronous, so nothing else runs on the host’s thread meanwhile.',
  'Targets. End to end ≥ 0.5× the store’s grouped rate in the same run: met on both stores in every run above (SQLite 0.54–0.60×, PostgreSQL 0.58–0.79×); the table above is the full `npm run bench` run. SQLite ≥ 2,000 decisions/s end to end with the machine otherwise idle: met (2,087–2,463/s at load 0.4–1.0; 2,338–2,584/s earlier the same hour at load 1.0–2.3). Policy answers ≥ 5,000/s through live scripted CLIs: met (5,881–6,323/s). POST p99 under that load: 24–36 ms on SQLite, 35–49 ms on PostgreSQL.',
];
