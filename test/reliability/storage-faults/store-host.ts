// A host process for the storage fault tests, killed or left waiting by them. It says what it did on stdout,
// one line at a time:
//   hold <db>                  opens the store (holding its lock) and prints `open`; closes at stdin's end.
//   commits <db> <maxBytes>    commits events for ever with the database capped at maxBytes (a full
//                              "disk" without privileges); prints `ok <n> full <m>` every 20 commits.
//   supervisor <dataDir>       a supervisor whose CLI (the scripted stand-in) streams messages and
//                              permission requests for ever; prints `recorded <seq> full <warnings>`.
import { createInterface } from 'node:readline';

import { StoreError } from '../../../src/protocol/errors.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import { Supervisor } from '../../../src/supervisor/index.js';
import { fakeQueries, startTurn } from '../../fixtures/supervisor-fake-query.js';

const [mode, target = '', arg = ''] = process.argv.slice(2);

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Lets timers and I/O run between bursts, so the parent's signal lands mid-stream. */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function hold(): Promise<void> {
  const store = SqliteStore.open(target);
  say('open');
  for await (const line of createInterface({ input: process.stdin })) void line;
  store.close();
}

async function commits(): Promise<void> {
  const store = SqliteStore.open(target);
  const threadId = 'thread-under-a-full-disk';
  store.commit(threadId, [
    {
      type: 'thread.created',
      data: { cwd: '/project', mode: 'supervised', model: null, rules: { allow: [], deny: [] } },
    },
  ]);
  store.limitSize(Number(arg));
  let ok = 0;
  let full = 0;
  for (let i = 0; ; i += 1) {
    try {
      store.commit(threadId, [
        { type: 'thread.titled', data: { title: `title ${i} ${'x'.repeat(400)}`, source: 'user' } },
      ]);
      ok += 1;
    } catch (error) {
      if (!(error instanceof StoreError && error.code === 'STORE_FULL')) throw error;
      full += 1;
    }
    if (i % 20 === 19) {
      say(`ok ${ok} full ${full}`);
      await breathe();
    }
  }
}

async function supervisor(): Promise<void> {
  const { query, made } = fakeQueries();
  let full = 0;
  const sup = await Supervisor.open({
    dataDir: target,
    query,
    detached: false,
    onWarning: (warning) => {
      if (warning.code === 'STORE_FULL') full += 1;
    },
  });
  const thread = await sup.createThread({ cwd: arg, mode: 'supervised' });
  const { fake } = await startTurn(sup, made, thread.id, 'work for ever');
  for (let i = 0; ; i += 1) {
    fake.emit({
      type: 'assistant',
      parent_tool_use_id: null,
      message: { id: `msg_${i}`, content: [{ type: 'text', text: `step ${i} ${'y'.repeat(2000)}` }] },
    });
    // Requests nobody answers: each is an approval, or waits for the store to take it.
    if (i % 5 === 0) void fake.ask('Bash', { command: `echo ${i}` }).result;
    if (i % 10 === 9) {
      say(`recorded ${sup.lastSeq()} full ${full}`);
      await breathe();
    }
  }
}

const modes: Record<string, () => Promise<void>> = { hold, commits, supervisor };
const run = modes[mode ?? ''];
if (run === undefined) throw new TypeError(`unknown mode ${String(mode)}`);
await run();
