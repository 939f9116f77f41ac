// "Always allow" for a file reached through a symlink, against the real CLI: the rules shown — the path
// as the agent wrote it and the file it leads to — are what the CLI needs, so the same call later in the
// session is not asked again (for a Read, and for a Bash command whose read the CLI checks at the
// resolved path). Once the link is pointed at another file, a Read of it asks again: neither the CLI nor
// Warden follows a link on the say-so of a rule for its name.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario, until, type Scratch } from '../../src/testing/index.js';
import { signal } from './helpers/sdk-session.js';
import { allEvents, startSupervisorSession, waitForEvent } from './helpers/supervisor-session.js';

/** A link outside the project, to a file beside another one it may be pointed at later. */
function linkIn(scratch: Scratch): { link: string; target: string; other: string } {
  const dir = join(scratch.tmpdir, 'links');
  mkdirSync(dir, { recursive: true });
  const target = join(dir, 'release');
  const other = join(dir, 'secret');
  writeFileSync(target, 'RELEASE\n');
  writeFileSync(other, 'SECRET\n');
  const link = join(dir, 'os-release');
  symlinkSync(target, link);
  return { link, target, other };
}

describe('always allow through a symlink (real CLI)', { timeout: 120_000 }, () => {
  it('a Read: not asked again while the link leads there; asked again once it leads elsewhere', async (t) => {
    const repointed = signal();
    // Made once the session's scratch exists; the script reads it when the CLI asks.
    const made: { paths?: ReturnType<typeof linkIn> } = {};
    const script = scenario()
      .on('read')
      .reply(() => ({
        content: [{ type: 'tool_use', name: 'Read', input: { file_path: made.paths!.link } }],
      }))
      .reply(() => ({
        content: [{ type: 'tool_use', name: 'Read', input: { file_path: made.paths!.link } }],
      }))
      .after(repointed.promise)
      .reply(() => ({
        content: [{ type: 'tool_use', name: 'Read', input: { file_path: made.paths!.link } }],
      }))
      .thenAnswer((ctx) => `last read: ${ctx.toolResults[0]?.text ?? ''}`)
      .build();
    const { sup, scratch, thread, mock } = await startSupervisorSession(t, script);
    const paths = linkIn(scratch);
    made.paths = paths;
    await sup.send(thread.id, '[[read]] read the release');

    const first = await waitForEvent(sup, 'approval.requested');
    assert.deepEqual(first.data.alwaysAllowRules, [`Read(/${paths.link})`, `Read(/${paths.target})`]);
    await sup.decide(first.data.approvalId, {
      behavior: 'allow_always',
      rules: first.data.alwaysAllowRules,
    });
    // The second Read runs unasked: its result (not an error) reaches the model.
    const second = await until(() => mock.requests.find((r) => r.kind === 'main' && r.turnRounds === 2), {
      what: 'the request after the second Read',
    });
    assert.equal(second.toolResults?.[0]?.isError, false, second.toolResults?.[0]?.text);
    assert.equal(sup.listApprovals().length, 1, 'the second Read was not asked');

    rmSync(paths.link);
    symlinkSync(paths.other, paths.link);
    repointed.fire();
    const again = await waitForEvent(
      sup,
      'approval.requested',
      (e) => e.data.approvalId !== first.data.approvalId,
    );
    assert.deepEqual(again.data.alwaysAllowRules, [`Read(/${paths.link})`, `Read(/${paths.other})`]);
    await sup.decide(again.data.approvalId, { behavior: 'deny', message: 'not that one' });
    const ended = await waitForEvent(sup, 'run.ended');
    assert.match(ended.data.result?.text ?? '', /not that one/);
  });

  it('a Bash read: the command, the path it names and the target; the same command is not asked again', async (t) => {
    // Made once the session's scratch exists; the script reads it when the CLI asks.
    const made: { paths?: ReturnType<typeof linkIn> } = {};
    const cat = () => ({
      content: [
        {
          type: 'tool_use' as const,
          name: 'Bash',
          input: { command: `cat ${made.paths!.link}`, description: 'Show it' },
        },
      ],
    });
    const script = scenario()
      .on('cat')
      .reply(cat)
      .reply(cat)
      .thenAnswer((ctx) => `last cat: ${ctx.toolResults[0]?.text ?? ''}`)
      .build();
    const { sup, scratch, thread } = await startSupervisorSession(t, script);
    const paths = linkIn(scratch);
    made.paths = paths;
    const run = await sup.send(thread.id, '[[cat]] show the release');

    const first = await waitForEvent(sup, 'approval.requested');
    assert.equal(first.data.blockedPath, paths.target, 'the CLI checks the read at the resolved path');
    assert.deepEqual(first.data.alwaysAllowRules, [
      `Bash(cat ${paths.link})`,
      `Read(/${paths.link})`,
      `Read(/${paths.target})`,
    ]);
    await sup.decide(first.data.approvalId, { behavior: 'allow_always', rules: first.data.alwaysAllowRules });
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.result?.text, 'last cat: RELEASE');
    // The CLI held the rules itself: its second request never came, to a person or to the policy.
    const events = await allEvents(sup);
    assert.equal(events.filter((e) => e.type === 'approval.requested').length, 1);
    assert.equal(events.filter((e) => e.type === 'permission.decided').length, 0);
  });
});
