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
    '2 µs per answer (`compilePolicy`): a cache would not show.',
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
  'Measured again on an idle machine (load average 0.3–1.3), the code above, before this round: SQLite 1,209 decisions/s end to end (profiled) against 3,009/s for the store alone in the same run, host CPU 808 µs per answer; unprofiled 1,732 and 1,869/s against 5,217 and 5,633/s (load 1.3–1.4). The §11 figures in the table were taken at load average ~20. Main-thread profile per answer (load 1.3, 0.83 ms in the run’s window): HTTP 0.14 ms (Hono’s routing, Node’s parser, the reply’s writev), store reads 0.13 ms (the live feed and the notification feed each reading every new event back from SQLite 0.06 ms with its JSON parse; a permission request reading its thread four times, for the policy, cwd, deadline and route, 0.03 ms; the approval 0.02 ms), the transactions’ BEGIN/COMMIT 0.10 ms (a commit writes ~7 WAL frames, two pwrites each: 116,000 pwrites for 8,000 commits under strace), the audit chain 0.08 ms (canonical JSON 0.02 ms), policy 0.08 ms (the bash parse; lstat of the paths 0.01 ms), supervisor 0.06 ms, the events insert 0.05 ms, fan-out 0.04 ms, Node internals 0.04 ms, projector 0.03 ms, idle 0.03 ms, barrier and publication 0.02 ms, GC 0.02 ms.',
  'The round before: the SQLite store keeps the rows it committed last (src/store/event-tail.ts) and serves the reads at the log’s edge from them, building fresh events as a query would; it keeps a thread’s row until the thread’s next commit (every statement that writes a thread row names the committing thread); the commits a permission request waits on, its approval or the policy’s verdict, are queued over the turn and written in one transaction (Store.commitMany, each commit a savepoint of its own: one that does not fit is refused alone; src/supervisor/durable/turn-commits.ts), and each caller is resolved only once that transaction has returned, so a returned commit is still in the WAL and nothing is answered before the barrier after it. A person’s decision is still one commit of its own (its compare-and-set answers the POST there and then). Checkpoints are not the cost: wal_autocheckpoint from 1,000 to 10,000 pages moved the store alone within its noise.',
  'Before / after in the same runs (`--tree` against the code before, alternating): idle (load 1.0–1.1), SQLite 1,970 → 2,120 decisions/s (store alone 6,001/s), POST p50 14.1 → 13.0 ms, p99 29.4 → 28.0 ms, decide → CLI p50 14.4 → 12.8 ms, p99 28.4 → 27.1 ms, host CPU 629 → 590 µs per answer; policy only (`--policy-only`, 16 agents × 250, 4 in flight each) 5,101 → 6,437 answers/s, host CPU 257 → 215 µs per answer. Earlier in the same hour (load 1.3–1.4): 1,732 → 1,862 and 1,869 → 1,923/s. Loaded by other work (load 5–7): SQLite 841 → 1,112 and 1,281 → 1,053/s (store alone 4,517 and 2,795/s), policy only 2,457 → 2,974/s; PostgreSQL 286 → 422 and 273 → 406/s (store alone 1,667 and 1,831/s), host CPU 2,287 → 1,684 and 2,266 → 1,703 µs per answer, POST p99 238 → 172 and 294 → 172 ms.',
  'Profile after, beside before in the same run (load 5.9–6.1, so every sample inflated; main-thread ms per answer, busy 1.03 → 0.96): transaction BEGIN/COMMIT 0.134 → 0.089, store reads 0.143 → 0.079; unchanged within noise: HTTP 0.21 → 0.23, policy 0.10 → 0.11, supervisor 0.09 → 0.09, audit chain 0.08 → 0.07, events insert 0.06 → 0.07, fan-out 0.06 → 0.05, Node internals 0.05 → 0.05, GC 0.03 → 0.05, barrier 0.04 → 0.03, projector 0.03 → 0.03.',
  'PostgreSQL, this round: the reads of one turn of the event loop ask for the log head once (again only after a commit of this process: two hosts in one process see each other’s commits at once), the events at the log’s edge come from the replica’s tail (its own commits and the folded ones, src/store/event-tail.ts), and a turn’s commits go in one statement when the replica has every event (each in a replica savepoint; another host’s move of the head, or none fitting, sends each back to the locked path alone); a barrier whose connection is lost is tried again until the statement timeout and then holds only if the log still has the store’s last event (a bug: a barrier in flight during a server restart failed the store for good). Before / after, alternating in the same runs (`--tree`, load 1.1–2.0): 294 → 482, 295 → 495 (the head check alone), 319 → 629, 308 → 550 decisions/s (all three; store alone 2,379 and 2,701/s), POST p99 188 → 97 and 160 → 104 ms, host CPU 2,400 → 1,363 and 2,529 → 1,537 µs per answer. Profiled in one run (load 2.3–2.5; main-thread ms per answer 4.44 → 2.78, of it blocked on the connection worker 3.00 → 1.61): the head checks 1.87 → 0.39, the batch’s write 0.59 → 0.56, its head lock 0.29 → 0.37, one-statement writes 0.08 → 0.20 (more commits go that way), event reads 0.07 → 0.',
  'SQLite, this round: an approval’s escalation timers are armed from its event when it has none, without reading it back; alternating with the code before (load 1.9–2.1): 1,541 → 1,817, 1,700 → 1,806, 1,604 → 1,816 decisions/s, host CPU 787 → 692, 750 → 728, 798 → 722 µs per answer. This machine ran slower than in the round before (host CPU ~720–840 µs per answer against 590 then, the same SQLite code): 1,396–1,817 decisions/s over eight runs at load 1.7–2.0 (store alone 3,356–5,181/s), POST p99 29–55 ms; policy only 4,482–5,673 answers/s over five runs (287 µs per answer).',
  'This round: people’s decisions of one turn of the event loop are committed together with the turn’s permission requests (src/supervisor/approvals/decider.ts through turn-commits.ts: one SQLite transaction, one PostgreSQL statement when the replica has every event), each still its own compare-and-set in a savepoint (a second answer to an approval already answered in the turn is a ConflictError alone); an acknowledgement waits for the turn’s queued commits before the barrier. On PostgreSQL that replaces the head lock and the batch’s write, two blocking round trips per turn, with the one statement already sent for the turn’s requests. Alternating with the code before in one run of `npx tsx bench/decisions-rate.ts --rounds 2 --tree …` (load 1.9–2.3): PostgreSQL 670 → 1,401 and 718 → 1,431 decisions/s against 2,796 and 2,748/s for the store alone (0.24 → 0.50× and 0.26 → 0.52×), POST p99 93 → 48 and 83 → 44 ms, host CPU 1,292 → 771 and 1,243 → 757 µs per answer; SQLite 1,829 → 1,939 decisions/s against 4,533/s (0.40 → 0.43×), host CPU 722 → 680 µs. An earlier pair of runs (load 0.2–1.2): PostgreSQL 509 → 1,121 and 656 → 1,341/s. The run now prints every process’s CPU per answer and the cores busy: 1.45–1.54 of 2 on SQLite, 1.29–1.39 on PostgreSQL — the machine is not saturated; the host’s main thread is what is busy (its process 637–722 µs per answer of the 763–803 µs all processes spend).',
  'Targets. Policy answers ≥ 5,000/s through live scripted CLIs: met (5,308–5,673/s in four of five runs at load 1.7–2.1; 6,437/s in the round before). SQLite ≥ 2,000 decisions/s end to end on an idle machine: met in the round before last (2,120/s at load 1.0); this round 1,939–1,979/s at load 2.0–2.3. End to end ≥ 0.5× the store’s grouped rate: PostgreSQL met in this round’s runs (0.50–0.52×; the table above is the full run before it, 0.18×); SQLite not met (0.43×: 1,939 against 4,533/s). Why SQLite falls short: the store alone is one loop of commits; end to end each answer also pays HTTP (Hono’s routing still runs; only the body and the reply are Node’s own), the policy’s bash parse, the supervisor and the fan-out on the host’s one thread, which is busy while the machine is not (above). What would close it: the decision route on plain node:http before Hono, and the HTTP and WebSocket work of the host moved off the thread that runs the supervisor.',
];
