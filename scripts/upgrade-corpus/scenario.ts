// The scenario every log of the upgrade corpus records, run by the Warden of one commit: this file is
// copied to the same path in a checkout of that commit and run there, so it may use only what every
// commit since the first schema version has (Supervisor.open with `query`, createThread, send, decide,
// the scripted CLI of test/fixtures/supervisor-fake-query.ts). It ends by SIGKILL, as a host that dies:
// what is pending stays pending in the log. Settings come from the environment (make-upgrade-corpus.ts):
//   CORPUS_DATA_DIR   the data directory (its warden.db is the SQLite log)
//   CORPUS_STORE      a postgres:// URL: the log goes there instead
//   CORPUS_CWD        the threads' working directory
//   CORPUS_DEADLINES  "1" when this commit has thread deadlines (SQLite schema version 6 on)
import { frames, fakeQueries, type FakeQuery } from '../../test/fixtures/supervisor-fake-query.js';
import { Supervisor } from '../../src/supervisor/index.js';

const dataDir = need('CORPUS_DATA_DIR');
const cwd = need('CORPUS_CWD');
const storeUrl = process.env.CORPUS_STORE;
const withDeadlines = process.env.CORPUS_DEADLINES === '1';

function need(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

/** Waits (polling the projections: the same loop on every commit) until `done` holds. */
async function until(what: string, done: () => boolean): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const { query, made } = fakeQueries();
const sup = await Supervisor.open({
  dataDir,
  query,
  onWarning: () => undefined,
  ...(storeUrl === undefined ? {} : { store: storeUrl }),
});

async function turn(threadId: string, text: string): Promise<{ fake: FakeQuery; uuid: string }> {
  const run = await sup.send(threadId, text);
  const fake = made.at(-1);
  if (fake === undefined) throw new Error('no CLI process was started');
  const uuid = String(run.userMessageId);
  await fake.received(uuid);
  fake.emit(frames.init([uuid]));
  return { fake, uuid };
}

const pendingCount = (): number => sup.listApprovals().filter((a) => a.status === 'pending').length;

/** Asks as the CLI does and waits until the approval is pending; returns its id and the CLI's answer. */
async function ask(
  fake: FakeQuery,
  tool: string,
  input: Record<string, unknown>,
  extra: { agentID?: string } = {},
): Promise<{ id: string; asked: ReturnType<FakeQuery['ask']> }> {
  const before = new Set(sup.listApprovals().map((a) => a.id));
  const asked = fake.ask(tool, input, extra);
  let id: string | undefined;
  await until(`the approval of ${tool}`, () => {
    id = sup.listApprovals().find((a) => !before.has(a.id) && a.status === 'pending')?.id;
    return id !== undefined;
  });
  return { id: id!, asked };
}

// Thread 1: one allowed, one denied, one withdrawn by the CLI (cancelled); its run completes.
const first = await sup.createThread({ cwd, mode: 'supervised' });
const one = await turn(first.id, 'install and push');
// Commands that ask in supervised mode under every commit's policy (a read-only one may be allowed by it).
const allowed = await ask(one.fake, 'Bash', { command: 'npm install', description: 'Install' });
await sup.decide(allowed.id, { behavior: 'allow' });
await allowed.asked.result;
const denied = await ask(one.fake, 'Bash', { command: 'git push --force', description: 'Push' });
await sup.decide(denied.id, { behavior: 'deny', message: 'not the build directory' });
await denied.asked.result;
const withdrawn = await ask(one.fake, 'Edit', {
  file_path: `${cwd}/notes.txt`,
  old_string: 'a',
  new_string: 'b',
});
withdrawn.asked.withdraw();
await withdrawn.asked.result;
one.fake.emit(frames.result([one.uuid]));
await until('the first run to complete', () => sup.getThread(first.id).runs[0]?.status === 'completed');

// Thread 2: a background subagent and the root turn each wait on an approval when the host dies.
const second = await sup.createThread({ cwd, mode: 'supervised' });
const two = await turn(second.id, 'write the report in the background');
two.fake.emit(frames.agentCall('toolu_agent'));
two.fake.emit(frames.taskStarted('task-1', 'toolu_agent'));
await ask(two.fake, 'Write', { file_path: `${cwd}/report.md`, content: '# Report\n' }, { agentID: 'task-1' });
await ask(two.fake, 'Bash', { command: 'git commit -am wip', description: 'Commit' });

if (withDeadlines) {
  // Thread 3: a deadline that fires (denied by it), then a long one still running when the host dies.
  const third = await sup.createThread({ cwd, mode: 'supervised', deadlines: { afterMs: 1000 } });
  const three = await turn(third.id, 'deploy when someone agrees');
  const expiring = await ask(three.fake, 'Bash', { command: 'make deploy', description: 'Deploy' });
  // Polled: the deadline's timer does not keep the process alive by itself.
  await until('the deadline', () =>
    sup.listApprovals().every((a) => a.id !== expiring.id || a.status !== 'pending'),
  );
  await expiring.asked.result;
  await sup.setDeadlines(third.id, { afterMs: 3_600_000 });
  await ask(three.fake, 'Bash', { command: 'make deploy', description: 'Deploy again' });
}

const pending = pendingCount();
console.log(JSON.stringify({ threads: sup.listThreads().length, pending }));
// A host that dies: nothing is closed, the CLIs' approvals stay pending in the log.
process.kill(process.pid, 'SIGKILL');
