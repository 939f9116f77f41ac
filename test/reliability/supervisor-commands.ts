// The commands of the model-based test. Each picks its target among what exists (an index taken modulo the
// model's lists), applies itself to the model and to the real supervisor, then checks that both agree and
// that every invariant holds.
import assert from 'node:assert/strict';

import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';

import { ConflictError, WardenError } from '../../src/protocol/errors.js';
import { THREAD_MODES, type ThreadMode } from '../../src/store/records.js';
import { Supervisor } from '../../src/supervisor/index.js';
import { fakeQueries } from '../fixtures/supervisor-fake-query.js';
import { assertInvariants, assertLogInvariants, assertMatchesModel } from './supervisor-invariants.js';
import {
  KINDS,
  endProcess,
  frames,
  maybeRelease,
  ruleOf,
  settleAsks,
  until,
  verdict,
  type Kind,
  type Model,
  type ModelThread,
  type Real,
  type Scope,
} from './supervisor-model.js';

type Command = fc.AsyncCommand<Model, Real>;

const MAX_THREADS = 3;

function pickThread(model: Model, pick: number): number | undefined {
  return model.threads.length === 0 ? undefined : pick % model.threads.length;
}

function pendingAsk(model: Model, pick: number): number | undefined {
  const pending = model.asks.flatMap((ask, index) => (ask.status === 'pending' ? [index] : []));
  return pending.length === 0 ? undefined : pending[pick % pending.length];
}

function runningSubagent(thread: ModelThread, pick: number): number | undefined {
  const running = thread.subagents.flatMap((s, index) => (s.running ? [index] : []));
  return running.length === 0 ? undefined : running[pick % running.length];
}

async function afterStep(model: Model, real: Real, name: string): Promise<void> {
  real.count(name);
  await assertMatchesModel(model, real);
  // The current state may be one fsync ahead of the log readers see (group commit): compared once both meet.
  await real.sup.durable();
  assertInvariants(real);
}

export class CreateThread implements Command {
  constructor(readonly mode: ThreadMode) {}
  check = (m: Readonly<Model>): boolean => m.threads.length < MAX_THREADS;
  async run(m: Model, r: Real): Promise<void> {
    const cwd = r.newCwd();
    const thread = await r.sup.createThread({ cwd, mode: this.mode });
    r.threads.push({
      id: thread.id,
      cwd,
      fake: undefined,
      generation: 0,
      runIds: [],
      uuids: [],
      subagentIds: [],
    });
    m.threads.push({
      mode: this.mode,
      live: false,
      openRun: undefined,
      queued: [],
      runs: [],
      subagents: [],
      grants: new Set(),
    });
    await afterStep(m, r, 'createThread');
  }
  toString = (): string => `createThread(${this.mode})`;
}

/**
 * send(): with no turn open, the CLI opens one for the message (its init frame names it); during a turn
 * the message is queued, and the CLI takes it when the turn ends.
 */
export class Send implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => {
    const t = pickThread(m, this.pick);
    return t !== undefined && m.threads[t]!.queued.length < 2;
  };
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    const thread = r.threads[t]!;
    const model = m.threads[t]!;
    const before = r.made.length;
    const run = await r.sup.send(thread.id, `message ${thread.runIds.length + 1}`);
    if (r.made.length > before || thread.fake === undefined) {
      thread.fake = r.made.at(-1);
      thread.generation = r.sup.getThread(thread.id).thread.generation;
    }
    const uuid = String(run.userMessageId);
    await thread.fake!.received(uuid);
    thread.runIds.push(run.id);
    thread.uuids.push(uuid);
    model.live = true;
    model.runs.push({ ended: false, released: false });
    const index = model.runs.length - 1;
    if (model.openRun === undefined) {
      await openTurn(r, t, index);
      model.openRun = index;
    } else {
      assert.equal(run.status, 'queued', 'a message sent during a turn is queued');
      model.queued.push(index);
    }
    await afterStep(m, r, model.openRun === index ? 'send' : 'sendQueued');
  }
  toString = (): string => `send(${this.pick})`;
}

/** The CLI opens the turn of run `index` (its init frame names the run's message). */
async function openTurn(r: Real, t: number, index: number): Promise<void> {
  const thread = r.threads[t]!;
  const runId = thread.runIds[index]!;
  thread.fake!.emit(frames.init([thread.uuids[index]!]));
  assert.ok(
    await until(() => r.sup.getThread(thread.id).runs.find((x) => x.id === runId)?.status === 'running'),
    'the run started',
  );
}

/** The CLI ends the open turn with a result. */
class Result implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => {
    const t = pickThread(m, this.pick);
    return t !== undefined && m.threads[t]!.openRun !== undefined;
  };
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    const model = m.threads[t]!;
    const runIndex = model.openRun!;
    const thread = r.threads[t]!;
    const runId = thread.runIds[runIndex]!;
    thread.fake!.emit(frames.result([thread.uuids[runIndex]!]));
    assert.ok(
      await until(() => r.sup.getThread(thread.id).runs.find((x) => x.id === runId)?.status !== 'running'),
    );
    model.openRun = undefined;
    model.runs[runIndex]!.ended = true;
    maybeRelease(m, t, runIndex);
    const next = model.queued.shift();
    if (next !== undefined) {
      await openTurn(r, t, next);
      model.openRun = next;
    }
    await afterStep(m, r, 'result');
  }
  toString = (): string => `result(${this.pick})`;
}

/**
 * The CLI asks for permission: from the main conversation (during a turn, or after it, when the last run
 * still has running subagents), from a running background subagent, or naming an agent Warden does not
 * know (a foreground subagent, owned by the turn in progress). With no run to own it, it is denied.
 */
export class Ask implements Command {
  constructor(
    readonly pick: number,
    readonly kind: Kind,
    readonly from: number | 'main' | 'unknown agent',
  ) {}
  #owner(
    m: Readonly<Model>,
  ): { t: number; run: number | undefined; subagent: number | undefined } | undefined {
    const t = pickThread(m, this.pick);
    if (t === undefined || !m.threads[t]!.live) return undefined;
    const thread = m.threads[t]!;
    if (this.from === 'unknown agent') return { t, run: thread.openRun, subagent: undefined };
    if (this.from === 'main') {
      const last = thread.runs.length - 1;
      const lastOwns = last >= 0 && !thread.runs[last]!.released;
      return { t, run: thread.openRun ?? (lastOwns ? last : undefined), subagent: undefined };
    }
    const s = runningSubagent(thread, this.from);
    return s === undefined ? undefined : { t, run: thread.subagents[s]!.run, subagent: s };
  }
  check = (m: Readonly<Model>): boolean => this.#owner(m) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const { t, run, subagent } = this.#owner(m)!;
    const thread = r.threads[t]!;
    const agentID =
      this.from === 'unknown agent'
        ? 'agent-nobody-started'
        : subagent === undefined
          ? undefined
          : thread.subagentIds[subagent];
    const ask = r.ask(t, this.kind, agentID);
    const expected = run === undefined ? 'deny' : verdict(m.threads[t]!, this.kind);
    m.asks.push({
      thread: t,
      run: run ?? -1,
      subagent,
      kind: this.kind,
      status: expected === 'ask' ? 'pending' : expected,
    });
    if (expected === 'ask') {
      const find = (): string | undefined =>
        r.sup
          .listApprovals({ threadId: thread.id })
          .find((a) => a.requestId === ask.requestId && a.generation === ask.generation)?.id;
      await until(() => find() !== undefined || ask.answers > 0);
      ask.approvalId = find();
    }
    await afterStep(m, r, run === undefined ? 'askUnowned' : 'ask');
  }
  toString = (): string => `ask(${this.pick}, ${this.kind}, ${String(this.from)})`;
}

/** The CLI withdraws a request it is waiting on (its control_cancel_request). */
class Withdraw implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => pendingAsk(m, this.pick) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const a = pendingAsk(m, this.pick)!;
    r.asks[a]!.withdraw();
    m.asks[a]!.status = 'deny';
    await afterStep(m, r, 'withdraw');
  }
  toString = (): string => `withdraw(${this.pick})`;
}

type Behaviour = 'allow' | 'allow_always' | 'deny' | 'deny_interrupt';

class Decide implements Command {
  constructor(
    readonly pick: number,
    readonly behaviour: Behaviour,
    readonly scope: Scope,
  ) {}
  check = (m: Readonly<Model>): boolean => pendingAsk(m, this.pick) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const a = pendingAsk(m, this.pick)!;
    const ask = m.asks[a]!;
    const approvalId = r.asks[a]!.approvalId;
    assert.ok(approvalId !== undefined, 'a pending request has an approval');
    const decision =
      this.behaviour === 'allow_always'
        ? { behavior: 'allow_always' as const, scope: this.scope }
        : this.behaviour === 'deny_interrupt'
          ? { behavior: 'deny' as const, message: 'no', interrupt: true }
          : { behavior: this.behaviour };
    await r.sup.decide(approvalId, decision);
    const answered = r.asks[a]!;
    assert.ok(await until(() => answered.answers > 0), 'the decision reached the CLI');
    const interrupt = answered.answer?.behavior === 'deny' && answered.answer.interrupt === true;
    assert.equal(
      interrupt,
      this.behaviour === 'deny_interrupt',
      'the CLI is told to interrupt only when asked',
    );
    ask.status = this.behaviour.startsWith('allow') ? 'allow' : 'deny';
    if (this.behaviour === 'allow_always') m.threads[ask.thread]!.grants.add(`${ask.kind}:${this.scope}`);
    await afterStep(m, r, 'decide');
  }
  toString = (): string => `decide(${this.pick}, ${this.behaviour}, ${this.scope})`;
}

/** A second decision on a settled approval is refused (compare-and-set) and changes nothing. */
class DecideAgain implements Command {
  constructor(readonly pick: number) {}
  #target(m: Readonly<Model>, r?: Real): number | undefined {
    const settled = m.asks.flatMap((ask, index) =>
      ask.status !== 'pending' && (r === undefined || r.asks[index]?.approvalId !== undefined) ? [index] : [],
    );
    return settled.length === 0 ? undefined : settled[this.pick % settled.length];
  }
  check = (m: Readonly<Model>): boolean => this.#target(m) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const a = this.#target(m, r);
    if (a !== undefined) {
      const seq = r.sup.lastSeq();
      await assert.rejects(r.sup.decide(r.asks[a]!.approvalId!, { behavior: 'allow' }), ConflictError);
      assert.equal(r.sup.lastSeq(), seq, 'a refused decision writes nothing');
    }
    await afterStep(m, r, 'decideAgain');
  }
  toString = (): string => `decideAgain(${this.pick})`;
}

class Interrupt implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => pickThread(m, this.pick) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    await r.sup.interrupt(r.threads[t]!.id);
    // Every pending approval belongs to the open turn or to a run whose subagents still run: all targets.
    if (m.threads[t]!.live) settleAsks(m, (a) => a.thread === t, 'deny');
    await afterStep(m, r, 'interrupt');
  }
  toString = (): string => `interrupt(${this.pick})`;
}

class Stop implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => pickThread(m, this.pick) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    await r.sup.stop(r.threads[t]!.id);
    r.threads[t]!.fake = undefined;
    if (m.threads[t]!.live) endProcess(m, t);
    await afterStep(m, r, 'stop');
  }
  toString = (): string => `stop(${this.pick})`;
}

/** The CLI process dies (SIGKILL): its pending requests abort, its output ends with an error. */
class Die implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => {
    const t = pickThread(m, this.pick);
    return t !== undefined && m.threads[t]!.live;
  };
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    const thread = r.threads[t]!;
    thread.fake!.die();
    thread.fake = undefined;
    assert.ok(await until(() => r.sup.getThread(thread.id).thread.status === 'idle'), 'the thread let go');
    endProcess(m, t);
    await afterStep(m, r, 'die');
  }
  toString = (): string => `die(${this.pick})`;
}

/** The CLI starts a background subagent in the open turn. */
class LaunchSubagent implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>): boolean => {
    const t = pickThread(m, this.pick);
    return t !== undefined && m.threads[t]!.openRun !== undefined;
  };
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    const thread = r.threads[t]!;
    const taskId = r.newTaskId();
    thread.fake!.emit(frames.agentCall(`toolu_${taskId}`));
    thread.fake!.emit(frames.taskStarted(taskId, `toolu_${taskId}`));
    assert.ok(await until(() => r.sup.getThread(thread.id).subagents.some((s) => s.id === taskId)));
    thread.subagentIds.push(taskId);
    const model = m.threads[t]!;
    model.subagents.push({ run: model.openRun!, running: true });
    await afterStep(m, r, 'launchSubagent');
  }
  toString = (): string => `launchSubagent(${this.pick})`;
}

/** A background subagent ends by itself, or is stopped through stopSubagent(). */
class SubagentEnds implements Command {
  constructor(
    readonly pick: number,
    readonly which: number,
    readonly stopped: boolean,
  ) {}
  check = (m: Readonly<Model>): boolean => {
    const t = pickThread(m, this.pick);
    return t !== undefined && runningSubagent(m.threads[t]!, this.which) !== undefined;
  };
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    const model = m.threads[t]!;
    const s = runningSubagent(model, this.which)!;
    const thread = r.threads[t]!;
    const taskId = thread.subagentIds[s]!;
    if (this.stopped) {
      const stopping = r.sup.stopSubagent(taskId);
      // The CLI reports the stopped task, as it does before answering stop_task.
      thread.fake!.emit(frames.taskNotification(taskId, 'stopped'));
      await stopping;
    } else {
      thread.fake!.emit(frames.taskNotification(taskId, 'completed'));
      assert.ok(
        await until(
          () => r.sup.getThread(thread.id).subagents.find((x) => x.id === taskId)?.status !== 'running',
        ),
      );
    }
    model.subagents[s]!.running = false;
    settleAsks(m, (a) => a.thread === t && a.subagent === s, 'deny');
    maybeRelease(m, t, model.subagents[s]!.run);
    await afterStep(m, r, this.stopped ? 'stopSubagent' : 'subagentEnds');
  }
  toString = (): string =>
    `subagentEnds(${this.pick}, ${this.which}, ${this.stopped ? 'stopped' : 'completed'})`;
}

class SetMode implements Command {
  constructor(
    readonly pick: number,
    readonly mode: ThreadMode,
  ) {}
  check = (m: Readonly<Model>): boolean => pickThread(m, this.pick) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    await r.sup.setMode(r.threads[t]!.id, this.mode);
    const model = m.threads[t]!;
    // The same mode again changes nothing: pending approvals are judged again only on a change.
    if (model.mode !== this.mode) {
      model.mode = this.mode;
      settleAsks(m, (a) => a.thread === t && verdict(model, a.kind) === 'allow', 'allow');
    }
    await afterStep(m, r, 'setMode');
  }
  toString = (): string => `setMode(${this.pick}, ${this.mode})`;
}

/** Removes a granted rule; a rule that is not granted in that scope is refused and changes nothing. */
class RevokeRule implements Command {
  constructor(
    readonly pick: number,
    readonly kind: Kind,
    readonly scope: Scope,
  ) {}
  check = (m: Readonly<Model>): boolean => pickThread(m, this.pick) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const t = pickThread(m, this.pick)!;
    const model = m.threads[t]!;
    const thread = r.threads[t]!;
    const granted = model.grants.has(`${this.kind}:${this.scope}`);
    const revoking = r.sup.revokeRule(thread.id, ruleOf(this.kind, thread.cwd), this.scope);
    if (granted) {
      await revoking;
      model.grants.delete(`${this.kind}:${this.scope}`);
    } else {
      const seq = r.sup.lastSeq();
      await assert.rejects(revoking, WardenError);
      assert.equal(r.sup.lastSeq(), seq, 'a refused revocation writes nothing');
    }
    await afterStep(m, r, granted ? 'revokeRule' : 'revokeAbsentRule');
  }
  toString = (): string => `revokeRule(${this.pick}, ${this.kind}, ${this.scope})`;
}

type Rival = 'withdraw' | 'decide' | 'die' | 'stop' | 'interrupt' | 'full-access';

/**
 * A decision on a pending approval and a rival change of the same request, started in either order
 * without waiting in between: whichever wins, the request is settled once and the CLI hears what the log
 * says. The winner is read from the real side; everything else the rival does is predicted.
 */
export class Race implements Command {
  constructor(
    readonly pick: number,
    readonly behavior: 'allow' | 'deny',
    readonly rival: Rival,
    readonly rivalFirst: boolean,
  ) {}
  check = (m: Readonly<Model>): boolean => pendingAsk(m, this.pick) !== undefined;
  async run(m: Model, r: Real): Promise<void> {
    const a = pendingAsk(m, this.pick)!;
    const ask = m.asks[a]!;
    const realAsk = r.asks[a]!;
    const thread = r.threads[ask.thread]!;
    const decide = (): Promise<unknown> => r.sup.decide(realAsk.approvalId!, { behavior: this.behavior });
    const rival = (): Promise<unknown> => {
      switch (this.rival) {
        case 'withdraw':
          realAsk.withdraw();
          return Promise.resolve();
        case 'decide':
          return r.sup.decide(realAsk.approvalId!, {
            behavior: this.behavior === 'allow' ? 'deny' : 'allow',
          });
        case 'die':
          thread.fake!.die();
          thread.fake = undefined;
          return until(() => r.sup.getThread(thread.id).thread.status === 'idle');
        case 'stop':
          thread.fake = undefined;
          return r.sup.stop(thread.id);
        case 'interrupt':
          return r.sup.interrupt(thread.id);
        case 'full-access':
          return r.sup.setMode(thread.id, 'full-access');
      }
    };
    const started = this.rivalFirst ? [rival(), decide()] : [decide(), rival()];
    for (const outcome of await Promise.allSettled(started))
      if (outcome.status === 'rejected')
        assert.ok(
          outcome.reason instanceof ConflictError,
          `only a ConflictError may lose a race: ${String(outcome.reason)}`,
        );
    const t = ask.thread;
    const model = m.threads[t]!;
    if (this.rival === 'die' || this.rival === 'stop') endProcess(m, t);
    if (this.rival === 'interrupt' && model.live) settleAsks(m, (x) => x.thread === t, 'deny');
    if (this.rival === 'full-access') {
      model.mode = 'full-access';
      settleAsks(m, (x) => x.thread === t && x !== ask, 'allow');
    }
    assert.ok(await until(() => realAsk.answers > 0), 'the raced request was answered');
    ask.status = realAsk.answer?.behavior === 'allow' ? 'allow' : 'deny';
    await afterStep(m, r, `race:${this.rival}`);
  }
  toString = (): string =>
    `race(${this.pick}, ${this.behavior}, ${this.rival}, ${this.rivalFirst ? 'rival first' : 'decision first'})`;
}

/** The host closes and a new one opens on the same data directory (a scripted CLI cannot be left running). */
class Reopen implements Command {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    await r.reopen();
    m.threads.forEach((thread, t) => {
      if (thread.live) endProcess(m, t);
    });
    await afterStep(m, r, 'reopen');
  }
  toString = (): string => 'reopen()';
}

/**
 * The host is killed (its data directory copied as it is on disk, mid-history) and a new host opens the
 * copy: everything that was live is closed out — pending approvals expired, runs interrupted, subagents
 * lost — and the copy's log keeps every invariant. The original history goes on.
 */
class HostKilled implements Command {
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    const before = r.sup;
    const pending = before.listApprovals({ status: 'pending' }).map((a) => a.id);
    const unfinished = before
      .listThreads()
      .flatMap((t) => before.getThread(t.id).runs)
      .filter((run) => run.status === 'running' || run.status === 'queued')
      .map((run) => run.id);
    const copy = join(r.root, `killed-${r.counts.get('hostKilled') ?? 0}`);
    cpSync(r.options.dataDir, copy, { recursive: true });
    const store = await r.backend.copy(r.options);
    const { query } = fakeQueries();
    const after = await Supervisor.open({
      dataDir: copy,
      ...store.options,
      query,
      onWarning: () => undefined,
    });
    try {
      assert.equal(after.recovered.approvalsExpired, pending.length, 'every pending approval is closed out');
      assert.equal(after.recovered.runsInterrupted, unfinished.length, 'every unfinished run is closed out');
      for (const id of pending) assert.equal(after.getApproval(id).status, 'expired');
      assert.deepEqual(after.listApprovals({ status: 'pending' }), []);
      for (const thread of after.listThreads()) {
        assert.equal(thread.status, 'idle');
        const view = after.getThread(thread.id);
        assert.ok(view.runs.every((run) => run.status !== 'running' && run.status !== 'queued'));
        assert.ok(view.subagents.every((subagent) => subagent.status !== 'running'));
      }
      assertLogInvariants(after);
    } finally {
      await after.close();
      store.release();
      rmSync(copy, { recursive: true, force: true });
    }
    await afterStep(m, r, 'hostKilled');
  }
  toString = (): string => 'hostKilled()';
}

const pick = fc.nat({ max: 30 });
const mode = fc.constantFrom(...THREAD_MODES);
const kind = fc.constantFrom(...KINDS);

const askFrom = fc.oneof(
  { arbitrary: fc.constant<'main'>('main'), weight: 6 },
  { arbitrary: pick, weight: 3 },
  { arbitrary: fc.constant<'unknown agent'>('unknown agent'), weight: 1 },
);
const ask = fc.tuple(pick, kind, askFrom).map(([p, k, from]) => new Ask(p, k, from));
const decide = fc
  .tuple(
    pick,
    fc.constantFrom<Behaviour>('allow', 'allow_always', 'deny', 'deny_interrupt'),
    fc.constantFrom<Scope>('thread', 'session'),
  )
  .map(([p, b, s]) => new Decide(p, b, s));

/** Weighted towards what histories are made of most: turns, requests and decisions. */
export const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: mode.map((m) => new CreateThread(m)), weight: 1 },
  { arbitrary: pick.map((p) => new Send(p)), weight: 4 },
  { arbitrary: pick.map((p) => new Result(p)), weight: 3 },
  { arbitrary: ask, weight: 12 },
  { arbitrary: pick.map((p) => new Withdraw(p)), weight: 1 },
  { arbitrary: decide, weight: 8 },
  { arbitrary: pick.map((p) => new DecideAgain(p)), weight: 1 },
  { arbitrary: pick.map((p) => new Interrupt(p)), weight: 1 },
  { arbitrary: pick.map((p) => new Stop(p)), weight: 1 },
  { arbitrary: pick.map((p) => new Die(p)), weight: 1 },
  { arbitrary: pick.map((p) => new LaunchSubagent(p)), weight: 2 },
  { arbitrary: fc.tuple(pick, pick, fc.boolean()).map(([p, w, s]) => new SubagentEnds(p, w, s)), weight: 2 },
  { arbitrary: fc.tuple(pick, mode).map(([p, m]) => new SetMode(p, m)), weight: 1 },
  {
    arbitrary: fc
      .tuple(pick, kind, fc.constantFrom<Scope>('thread', 'session'))
      .map(([p, k, s]) => new RevokeRule(p, k, s)),
    weight: 1,
  },
  { arbitrary: fc.constant(new Reopen()), weight: 1 },
  { arbitrary: fc.constant(new HostKilled()), weight: 1 },
  {
    arbitrary: fc
      .tuple(
        pick,
        fc.constantFrom<'allow' | 'deny'>('allow', 'deny'),
        fc.constantFrom<Rival>('withdraw', 'decide', 'die', 'stop', 'interrupt', 'full-access'),
        fc.boolean(),
      )
      .map(([p, b, rival, first]) => new Race(p, b, rival, first)),
    weight: 4,
  },
);
