// Decisions beyond yes and no, through the supervisor against the real CLI: the model's questions answered
// (the mock reads the answers in the tool result), a plan approved (the thread goes on in the mode chosen)
// and one sent back (the mock reads the feedback), a command edited before it runs (the mock reads the
// edited command's output), and what is refused: an edit the thread's rules deny, an edited input as a
// rule, answers to a question not asked.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ValidationError } from '../../src/index.js';
import type { StoredEvent } from '../../src/supervisor/index.js';
import {
  ASKED_COMMAND,
  decisionsScript,
  EDITED_COMMAND,
  PLAN,
  QUESTIONS,
} from './helpers/decisions-scripts.js';
import {
  assertNoProcessLeft,
  startSupervisorSession,
  waitForEvent,
  waitForNoProcess,
} from './helpers/supervisor-session.js';

type Requested = Extract<StoredEvent, { type: 'approval.requested' }>;

function resultText(event: Extract<StoredEvent, { type: 'run.ended' }>): string | null {
  return event.data.result?.text ?? null;
}

describe('decisions beyond yes and no (real CLI)', { timeout: 180_000 }, () => {
  it('answers AskUserQuestion: the model reads the answers, even in full-access mode', async (t) => {
    const { sup, mock, thread, scratch } = await startSupervisorSession(t, decisionsScript(), {
      mode: 'full-access',
    });
    const run = await sup.send(thread.id, '[[ask]] pick a database');
    // No mode answers a question for a person: full-access still asks.
    const asked: Requested = await waitForEvent(sup, 'approval.requested');
    assert.equal(asked.data.toolName, 'AskUserQuestion');
    assert.deepEqual(asked.data.input, { questions: QUESTIONS });
    const { approvalId } = asked.data;

    await assert.rejects(
      sup.decide(approvalId, { behavior: 'allow', answers: { 'Which colour?': 'Red' } }),
      (error: unknown) => error instanceof ValidationError && error.field === 'answers',
    );
    await assert.rejects(
      sup.decide(approvalId, {
        behavior: 'allow',
        answers: { 'Which database should the service use?': 'SQLite' },
      }),
      /no answer to "Which checks should run before a release\?"/,
    );
    assert.equal(sup.getApproval(approvalId).status, 'pending');

    const answers = {
      'Which database should the service use?': 'SQLite',
      'Which checks should run before a release?': 'Unit tests, Browser tests',
    };
    const decided = await sup.decide(approvalId, { behavior: 'allow', answers });
    assert.deepEqual(decided.decision?.updatedInput, { questions: QUESTIONS, answers });

    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(
      resultText(ended),
      'Answers: Your questions have been answered: "Which database should the service use?"="SQLite", ' +
        '"Which checks should run before a release?"="Unit tests, Browser tests". ' +
        'You can now continue with these answers in mind.',
    );
    assert.ok(mock.requests.length > 0);
    const item = sup.timeline(thread.id).find((i) => i.kind === 'tool_call');
    assert.equal(item?.kind, 'tool_call');
    if (item?.kind === 'tool_call')
      assert.deepEqual(item.permission?.updatedInput, { questions: QUESTIONS, answers });
    await sup.close({ stopAgents: true });
    await waitForNoProcess(scratch.home);
    assertNoProcessLeft(scratch.home);
  });

  it('approves a plan: plan mode ends, the thread goes on in the mode chosen', async (t) => {
    const { sup, scratch } = await startSupervisorSession(t, decisionsScript());
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised', plan: true });
    const run = await sup.send(thread.id, '[[plan]] add a health check');
    // In plan mode the CLI names a plan file to the model, and hands its text over with the request.
    const asked: Requested = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id);
    assert.equal(asked.data.toolName, 'ExitPlanMode');
    assert.equal(asked.data.input.plan, PLAN, 'the CLI hands over the plan its file holds');
    await assert.rejects(
      sup.decide(asked.data.approvalId, { behavior: 'allow_always', mode: 'auto-edits' }),
      (error: unknown) => error instanceof ValidationError && error.field === 'mode',
    );
    const decided = await sup.decide(asked.data.approvalId, { behavior: 'allow', mode: 'auto-edits' });
    assert.deepEqual(decided.decision?.updatedPermissions, [
      { type: 'setMode', mode: 'default', destination: 'session' },
    ]);
    assert.equal(sup.getThread(thread.id).thread.mode, 'auto-edits');

    // Out of plan mode, a command asks again (auto-edits asks for anything but edits).
    const next: Requested = await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.threadId === thread.id && e.data.toolName === 'Bash',
    );
    await sup.decide(next.data.approvalId, { behavior: 'allow' });
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(resultText(ended), 'Built: (Bash completed with no output)');
    assert.equal(existsSync(join(scratch.cwd, 'healthz.txt')), true);
  });

  it('sends a plan back with feedback the model reads; the thread stays in plan mode', async (t) => {
    const { sup, scratch } = await startSupervisorSession(t, decisionsScript());
    const thread = await sup.createThread({ cwd: scratch.cwd, mode: 'supervised', plan: true });
    const run = await sup.send(thread.id, '[[plan]] add a health check');
    const asked: Requested = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id);
    assert.equal(asked.data.toolName, 'ExitPlanMode');
    await sup.decide(asked.data.approvalId, {
      behavior: 'deny',
      message: 'Also log each health check.',
    });
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(resultText(ended), 'Plan sent back: Also log each health check.');
    assert.equal(sup.getThread(thread.id).thread.mode, 'supervised');
    assert.equal(existsSync(join(scratch.cwd, 'healthz.txt')), false);
  });

  it('runs the command as a person edited it; an edit the rules deny is refused', async (t) => {
    const { sup, scratch } = await startSupervisorSession(t, decisionsScript());
    const thread = await sup.createThread({
      cwd: scratch.cwd,
      mode: 'supervised',
      rules: { deny: ['Bash(rm:*)'] },
    });
    const run = await sup.send(thread.id, '[[edit]] make a file');
    const asked: Requested = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id);
    assert.equal(asked.data.input.command, ASKED_COMMAND);
    const { approvalId } = asked.data;

    // The policy judges the edited command: one its deny rules forbid is never sent.
    await assert.rejects(
      sup.decide(approvalId, {
        behavior: 'allow',
        updatedInput: { ...asked.data.input, command: 'rm -f x' },
      }),
      (error: unknown) =>
        error instanceof ValidationError &&
        error.field === 'updatedInput' &&
        /denied by the thread's policy \(denied by rule Bash\(rm:\*\)\)/.test(error.message),
    );
    // Not the same tool's input; no rule from an edit.
    await assert.rejects(
      sup.decide(approvalId, { behavior: 'allow', updatedInput: { command: 42 } }),
      /updatedInput\.command must be a string for Bash/,
    );
    await assert.rejects(
      sup.decide(approvalId, {
        behavior: 'allow_always',
        updatedInput: { ...asked.data.input, command: EDITED_COMMAND },
      }),
      /no rule is ever made from an edited or answered input/,
    );
    assert.equal(sup.getApproval(approvalId).status, 'pending');

    const edited = { ...asked.data.input, command: EDITED_COMMAND };
    const decided = await sup.decide(approvalId, { behavior: 'allow', updatedInput: edited });
    assert.deepEqual(decided.decision?.updatedInput, edited);
    assert.deepEqual(decided.input, asked.data.input, 'the approval keeps the input as asked');

    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(resultText(ended), 'Tool said: the edited command ran');
    assert.equal(existsSync(join(scratch.cwd, 'edited.txt')), true);
    assert.equal(existsSync(join(scratch.cwd, 'asked.txt')), false);
    const decidedEvent = await waitForEvent(sup, 'approval.decided', (e) => e.data.approvalId === approvalId);
    assert.deepEqual(decidedEvent.data.updatedInput, edited);
  });
});
