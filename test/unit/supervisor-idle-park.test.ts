// Parking idle CLIs: what counts as idle (the pure verdict), the option's validation, and the runtime's
// races played with a scripted CLI — a send that arrives while the CLI is being parked waits and resumes,
// a pending request keeps the CLI, a stop during a park ends the thread stopped, a parked thread stays
// parked across a restart.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import {
  DEFAULT_IDLE_PARK_MS,
  idleVerdict,
  validateIdleParkMs,
  type IdleFacts,
} from '../../src/supervisor/durable/idle-park.js';
import { Supervisor, type QueryFunction, type StoredEvent } from '../../src/supervisor/index.js';
import { FakeQuery, frames } from '../fixtures/supervisor-fake-query.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';

const QUIET: IdleFacts = {
  live: true,
  ending: false,
  reconciling: false,
  turnBusy: false,
  runningSubagents: 0,
  cliBusy: [],
  requestsInFlight: 0,
  pendingApprovals: 0,
  operationsInFlight: 0,
};

describe('idleVerdict', () => {
  it('calls a live CLI with nothing going on idle', () => {
    assert.deepEqual(idleVerdict(QUIET), { idle: true });
  });

  it('names the one thing that keeps the CLI, for each thing that can', () => {
    const cases: [Partial<IdleFacts>, RegExp][] = [
      [{ live: false }, /no CLI process/],
      [{ ending: true }, /already being stopped/],
      [{ reconciling: true }, /re-attached/],
      [{ turnBusy: true }, /turn is running/],
      [{ runningSubagents: 2 }, /2 subagent\(s\) running/],
      [{ pendingApprovals: 1 }, /1 approval\(s\) pending/],
      [{ requestsInFlight: 1 }, /permission request/],
      [{ operationsInFlight: 1 }, /request\(s\) to the CLI/],
      [{ cliBusy: ['1 background task(s) running'] }, /background task/],
      [{ cliBusy: ['the CLI reports requires_action'] }, /requires_action/],
    ];
    for (const [facts, because] of cases) {
      const verdict = idleVerdict({ ...QUIET, ...facts });
      assert.equal(verdict.idle, false, JSON.stringify(facts));
      if (!verdict.idle) assert.match(verdict.because, because);
    }
  });
});

describe('validateIdleParkMs', () => {
  it('defaults to ten minutes; 0 and Infinity never park', () => {
    assert.equal(validateIdleParkMs(undefined), DEFAULT_IDLE_PARK_MS);
    assert.equal(DEFAULT_IDLE_PARK_MS, 600_000);
    assert.equal(validateIdleParkMs(0), Infinity);
    assert.equal(validateIdleParkMs(Infinity), Infinity);
    assert.equal(validateIdleParkMs(1), 1);
    assert.equal(validateIdleParkMs(2 ** 31 - 1), 2 ** 31 - 1);
  });

  it('refuses anything else with a TypeError, at open', () => {
    for (const bad of [-1, 1.5, Number.NaN, -Infinity, 2 ** 31, '10m', null, true])
      assert.throws(() => validateIdleParkMs(bad), TypeError, String(bad));
    assert.throws(
      () => Supervisor.open({ dataDir: join(tmpdir(), 'never-made'), idleParkMs: -5 }),
      (error: unknown) => error instanceof TypeError && /idleParkMs/.test(error.message),
    );
  });
});

/** A scripted CLI whose close() takes effect only when the test lets it (a CLI slow to exit). */
class SlowToCloseQuery extends FakeQuery {
  #release: (() => void) | undefined;
  readonly #closing = new Promise<void>((resolve) => (this.#release = resolve));
  holdClose = false;

  override close(): void {
    if (!this.holdClose) return super.close();
    this.calls.push('close requested');
    void this.#closing.then(() => super.close());
  }

  letClose(): void {
    this.#release?.();
  }
}

async function openParking(t: TestContext, idleParkMs: number, dir?: string) {
  const root = dir ?? mkdtempSync(join(tmpdir(), 'warden-park-unit-'));
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const made: SlowToCloseQuery[] = [];
  const query: QueryFunction = ({ prompt, options }) => {
    const fake = new SlowToCloseQuery(prompt, options);
    made.push(fake);
    return fake;
  };
  const sup = await Supervisor.open({ dataDir: join(root, 'data'), query, idleParkMs });
  // The idle clock's timers do not keep the process alive, and a scripted CLI is no child process.
  const keepAlive = setInterval(() => undefined, 1000);
  t.after(async () => {
    clearInterval(keepAlive);
    await sup.close();
    if (dir === undefined) rmSync(root, { recursive: true, force: true });
  });
  return { sup, made, cwd, root };
}

/** Sends a message and plays the CLI's whole turn: init, result. */
async function turn(sup: Supervisor, made: SlowToCloseQuery[], threadId: string, text: string) {
  const run = await sup.send(threadId, text);
  const fake = made.at(-1) as SlowToCloseQuery;
  const uuid = String(run.userMessageId);
  await fake.received(uuid);
  fake.emit(frames.init([uuid]));
  fake.emit(frames.result([uuid]));
  await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id, 10_000);
  return { run, fake };
}

function typesOf(sup: Supervisor, threadId: string): StoredEvent['type'][] {
  return sup.readEvents({ threadId, limit: 1000 }).map((e) => e.type);
}

describe('parking with a scripted CLI', { timeout: 30_000 }, () => {
  it('parks an idle CLI and resumes its session on the next send', async (t) => {
    const { sup, made, cwd } = await openParking(t, 40);
    const thread = await sup.createThread({ cwd, mode: 'supervised' });
    const { fake } = await turn(sup, made, thread.id, 'hello');
    const parked = await waitForEvent(sup, 'thread.parked', (e) => e.threadId === thread.id, 10_000);
    assert.equal(parked.data.reason, 'idle');
    assert.ok(parked.data.idleMs >= 40, `idle ${parked.data.idleMs} ms`);
    assert.ok(fake.calls.includes('close'));
    assert.ok(!fake.calls.includes('interrupt'), 'nothing to interrupt in an idle CLI');
    assert.equal(sup.getThread(thread.id).thread.status, 'parked');
    const ended = sup
      .readEvents({ threadId: thread.id, limit: 1000 })
      .find((e) => e.type === 'session.ended');
    assert.equal(ended?.type === 'session.ended' && ended.data.reason, 'parked');

    await turn(sup, made, thread.id, 'again');
    assert.equal(made.length, 2, 'a new CLI process');
    assert.equal(made[1]?.options.resume, 'session-1', 'which resumes the session');
    const started = await waitForEvent(sup, 'session.started', (e) => e.data.generation === 2, 10_000);
    assert.equal(started.data.resume, 'session-1');
  });

  it('a send that arrives while the CLI is being parked waits for it, then resumes', async (t) => {
    const { sup, made, cwd } = await openParking(t, 40);
    const thread = await sup.createThread({ cwd, mode: 'supervised' });
    const { fake } = await turn(sup, made, thread.id, 'hello');
    fake.holdClose = true;
    await waitForEvent(sup, 'session.stopping', (e) => e.data.reason === 'parked', 10_000);
    let sent = false;
    const sending = sup.send(thread.id, 'while parking').then((run) => ((sent = true), run));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent, false, 'the send waits for the park');
    assert.equal(sup.getThread(thread.id).thread.status, 'stopping');
    fake.letClose();
    const run = await sending;
    assert.equal(run.status, 'running');
    assert.equal(made.length, 2);
    assert.equal(made[1]?.options.resume, 'session-1');
    const types = typesOf(sup, thread.id);
    const parkedAt = types.indexOf('thread.parked');
    assert.ok(parkedAt > types.indexOf('session.ended'), 'parked with the session end');
    assert.ok(types.lastIndexOf('session.started') > parkedAt, 'then the next session starts');
    assert.equal(sup.getThread(thread.id).thread.status, 'live');
  });

  it('a background subagent and its pending request keep the CLI; once both end it is parked', async (t) => {
    const { sup, made, cwd } = await openParking(t, 30);
    const thread = await sup.createThread({ cwd, mode: 'supervised' });
    const run = await sup.send(thread.id, 'start a helper');
    const fake = made.at(-1) as SlowToCloseQuery;
    const uuid = String(run.userMessageId);
    await fake.received(uuid);
    fake.emit(frames.init([uuid]));
    fake.emit(frames.agentCall('toolu_agent'));
    fake.emit(frames.taskStarted('task-1', 'toolu_agent'));
    fake.emit(frames.result([uuid]));
    await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id, 10_000);
    // The subagent asks after the root turn ended, and waits for a person.
    const asked = fake.ask('Bash', { command: 'ls' }, { agentID: 'task-1' });
    const approval = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id, 10_000);
    // A second thread, idle from the start of the wait, shows that periods have passed.
    const other = await sup.createThread({ cwd, mode: 'supervised' });
    await turn(sup, made, other.id, 'other');
    await waitForEvent(sup, 'thread.parked', (e) => e.threadId === other.id, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 10 * 30)); // a negative check: ten more periods
    assert.equal(sup.getThread(thread.id).thread.status, 'live', 'never parked while the approval waits');
    await sup.decide(approval.data.approvalId, { behavior: 'allow' });
    assert.equal((await asked.result).behavior, 'allow');
    await new Promise((resolve) => setTimeout(resolve, 10 * 30)); // the subagent still runs
    assert.equal(sup.getThread(thread.id).thread.status, 'live', 'never parked while the subagent runs');
    assert.ok(!typesOf(sup, thread.id).includes('thread.parked'));
    fake.emit(frames.taskNotification('task-1'));
    const ended = await waitForEvent(sup, 'subagent.ended', (e) => e.threadId === thread.id, 10_000);
    const parked = await waitForEvent(sup, 'thread.parked', (e) => e.threadId === thread.id, 10_000);
    assert.ok(parked.seq > ended.seq);
  });

  it('a stop asked for during a park ends the thread stopped, not parked', async (t) => {
    const { sup, made, cwd } = await openParking(t, 40);
    const thread = await sup.createThread({ cwd, mode: 'supervised' });
    const { fake } = await turn(sup, made, thread.id, 'hello');
    fake.holdClose = true;
    await waitForEvent(sup, 'session.stopping', (e) => e.data.reason === 'parked', 10_000);
    const stopping = sup.stop(thread.id);
    fake.letClose();
    await stopping;
    assert.equal(sup.getThread(thread.id).thread.status, 'idle');
    assert.ok(!typesOf(sup, thread.id).includes('thread.parked'));
  });

  it('never parks with idleParkMs 0', async (t) => {
    const { sup, made, cwd } = await openParking(t, 0);
    const thread = await sup.createThread({ cwd, mode: 'supervised' });
    const other = await openParking(t, 30);
    const watch = await other.sup.createThread({ cwd: other.cwd, mode: 'supervised' });
    await turn(sup, made, thread.id, 'hello');
    await turn(other.sup, other.made, watch.id, 'hello');
    await waitForEvent(other.sup, 'thread.parked', () => true, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 10 * 30)); // a negative check
    assert.equal(sup.getThread(thread.id).thread.status, 'live');
  });

  it('a parked thread is still parked after the host restarts, and resumes on send', async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'warden-park-unit-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const first = await openParking(t, 30, root);
    const thread = await first.sup.createThread({ cwd: first.cwd, mode: 'supervised' });
    await turn(first.sup, first.made, thread.id, 'hello');
    await waitForEvent(first.sup, 'thread.parked', () => true, 10_000);
    await first.sup.close();
    const second = await openParking(t, 30, root);
    assert.equal(second.sup.recovered.threads, 0, 'nothing to close out');
    assert.equal(second.sup.getThread(thread.id).thread.status, 'parked');
    assert.equal(second.sup.getThread(thread.id).thread.cliProcess, null);
    await turn(second.sup, second.made, thread.id, 'back');
    assert.equal(second.made[0]?.options.resume, 'session-1');
  });
});
