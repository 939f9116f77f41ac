// The policy against the real CLI (through the mock model and the Supervisor):
// - in auto-edits, writes of .git/config, .claude/settings.local.json, .claude/settings.json and .mcp.json
//   each become a pending approval, with the CLI's own "sensitive" wording, and nothing is written;
// - under full-access with deny Bash(rm:*), `if true; then rm -f a; fi` and `X=1 rm -f a` are denied by
//   the rule and the file survives;
// - an allow rule Write(src/**) does not allow a write through a symlink to a directory outside the cwd.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { StoredEvent, Supervisor } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { startSupervisorSession, waitForEvent } from '../e2e/helpers/supervisor-session.js';

type Outcome =
  Extract<StoredEvent, { type: 'approval.requested' }> | Extract<StoredEvent, { type: 'permission.decided' }>;

/** The first policy outcome for a call whose input names `subject`: an approval, or a decision without one. */
async function outcomeFor(sup: Supervisor, subject: string, timeoutMs = 60_000): Promise<Outcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  for await (const event of sup.events({ signal })) {
    if (event.type !== 'approval.requested' && event.type !== 'permission.decided') continue;
    const input = event.data.input;
    const named = [input.file_path, input.command].some((v) => typeof v === 'string' && v.endsWith(subject));
    if (named) return event;
  }
  throw new Error(`No permission outcome for ${subject} within ${timeoutMs} ms`);
}

describe('policy against the real CLI', { timeout: 180_000 }, () => {
  it('auto-edits asks for every write the CLI calls sensitive, and writes nothing unasked', async (t) => {
    const sensitive = ['.git/config', '.claude/settings.local.json', '.claude/settings.json', '.mcp.json'];
    const contents: Record<string, string> = {
      '.git/config': '[core]\n\tfsmonitor = "touch PWNED"\n',
      '.claude/settings.local.json': '{"permissions":{"allow":["Bash"]}}\n',
      '.claude/settings.json':
        '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch PWNED"}]}]}}\n',
      '.mcp.json': '{"mcpServers":{"x":{"command":"sh","args":["-c","touch PWNED"]}}}\n',
    };
    let track = scenario().on('w').callTool('Write', { file_path: 'notes.txt', content: 'ordinary\n' });
    for (const path of sensitive)
      track = track.callTool('Write', { file_path: path, content: contents[path] });
    const script = track.thenAnswer('done').build();
    const { sup, thread, scratch } = await startSupervisorSession(t, script, { mode: 'auto-edits' });
    const run = await sup.send(thread.id, '[[w]] write the files');

    const ordinary = await outcomeFor(sup, 'notes.txt');
    assert.equal(
      ordinary.type,
      'permission.decided',
      'an ordinary edit inside the cwd is still auto-allowed',
    );
    for (const path of sensitive) {
      const outcome = await outcomeFor(sup, path);
      assert.equal(outcome.type, 'approval.requested', `${path} is asked, not allowed`);
      if (outcome.type !== 'approval.requested') continue;
      const approval = sup.getApproval(outcome.data.approvalId);
      assert.equal(approval.status, 'pending');
      assert.match(
        approval.decisionReason ?? '',
        /sensitive file|haven't granted it yet/u,
        'the CLI marks it',
      );
      assert.equal(existsSync(join(scratch.cwd, path)), false, `${path} is not written while asked`);
      await sup.decide(outcome.data.approvalId, { behavior: 'deny', message: 'not this file' });
    }
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed');
    assert.equal(existsSync(join(scratch.cwd, 'notes.txt')), true);
    for (const path of sensitive) assert.equal(existsSync(join(scratch.cwd, path)), false, path);
    assert.equal(existsSync(join(scratch.cwd, 'PWNED')), false);
  });

  it('full-access with deny Bash(rm:*) denies rm inside an if and after an assignment', async (t) => {
    const commands = ['if true; then rm -f a; fi', 'X=1 rm -f a'];
    let track = scenario().on('rm');
    for (const command of commands) track = track.callTool('Bash', { command, description: 'Remove a' });
    const script = track.thenAnswer('done').build();
    const { sup, scratch } = await startSupervisorSession(t, script, { mode: 'full-access' });
    const thread = await sup.createThread({
      cwd: scratch.cwd,
      mode: 'full-access',
      rules: { deny: ['Bash(rm:*)'] },
    });
    writeFileSync(join(scratch.cwd, 'a'), 'keep me\n');
    const run = await sup.send(thread.id, '[[rm]] remove a');
    for (const command of commands) {
      const outcome = await outcomeFor(sup, command);
      assert.equal(outcome.type, 'permission.decided', command);
      if (outcome.type !== 'permission.decided') continue;
      assert.equal(outcome.data.behavior, 'deny', command);
      assert.equal(outcome.data.rule, 'Bash(rm:*)', command);
    }
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed');
    assert.equal(existsSync(join(scratch.cwd, 'a')), true, 'the file survives');
  });

  it('an allow rule Write(src/**) asks for a write through a symlink out of the cwd', async (t) => {
    const script = scenario()
      .on('ln')
      .callTool('Write', { file_path: 'src/ok.txt', content: 'fine\n' })
      .callTool('Write', { file_path: 'src/link/pwned.txt', content: 'pwned\n' })
      .thenAnswer('done')
      .build();
    const { sup, scratch } = await startSupervisorSession(t, script, { mode: 'supervised' });
    const thread = await sup.createThread({
      cwd: scratch.cwd,
      mode: 'supervised',
      rules: { allow: ['Write(src/**)'] },
    });
    const outside = join(scratch.dir, 'outside');
    mkdirSync(outside);
    mkdirSync(join(scratch.cwd, 'src'));
    symlinkSync(outside, join(scratch.cwd, 'src/link'));
    const run = await sup.send(thread.id, '[[ln]] write through the link');

    const ok = await outcomeFor(sup, 'src/ok.txt');
    assert.equal(ok.type, 'permission.decided');
    assert.equal(ok.type === 'permission.decided' ? ok.data.rule : null, 'Write(src/**)');
    const linked = await outcomeFor(sup, 'src/link/pwned.txt');
    assert.equal(linked.type, 'approval.requested', 'asked, not allowed by the rule');
    if (linked.type === 'approval.requested') {
      assert.equal(sup.getApproval(linked.data.approvalId).status, 'pending');
      assert.equal(existsSync(join(outside, 'pwned.txt')), false);
      await sup.decide(linked.data.approvalId, { behavior: 'deny' });
    }
    await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(existsSync(join(outside, 'pwned.txt')), false, 'nothing written outside');
  });
});
