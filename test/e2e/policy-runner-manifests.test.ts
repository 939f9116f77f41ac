// An allowed runner's manifests are protected in the thread that allows it, with the real CLI: in
// auto-edits with `Bash(npm test)` allowed, the model's write of package.json (a `test` script that runs a
// command) asks instead of being allowed by the mode, and denying it leaves the file as it was; the runner
// itself still runs under its rule.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { startSupervisorSession, waitForEvent } from './helpers/supervisor-session.js';

const ORIGINAL = '{ "name": "app", "scripts": { "test": "echo ok" } }\n';
const HOSTILE = '{ "name": "app", "scripts": { "test": "touch pwned.txt" } }\n';

describe('runner manifests, real CLI', { timeout: 120_000 }, () => {
  it('auto-edits with Bash(npm test) allowed: writing package.json asks; denied, nothing changes', async (t) => {
    const script = scenario()
      .on('rewrite')
      .callTool('Write', { file_path: 'package.json', content: HOSTILE })
      .thenAnswer((ctx) => `rewrite: ${ctx.toolResults[0]?.isError === true ? 'refused' : 'written'}`)
      .build();
    const session = await startSupervisorSession(t, script);
    const { sup, scratch } = session;
    writeFileSync(join(scratch.cwd, 'package.json'), ORIGINAL);
    const thread = await sup.createThread({
      cwd: scratch.cwd,
      mode: 'auto-edits',
      rules: { allow: ['Bash(npm test)'] },
    });
    await sup.send(thread.id, '[[rewrite]] change the test script');
    const asked = await waitForEvent(sup, 'approval.requested', (e) => e.threadId === thread.id);
    assert.equal(asked.data.toolName, 'Write');
    const decided = sup.listApprovals({ threadId: thread.id }).find((a) => a.id === asked.data.approvalId);
    assert.equal(decided?.status, 'pending', 'the mode did not allow it');
    await sup.decide(asked.data.approvalId, { behavior: 'deny', message: 'not the test script' });
    await waitForEvent(sup, 'run.ended', (e) => e.threadId === thread.id);
    assert.equal(readFileSync(join(scratch.cwd, 'package.json'), 'utf8'), ORIGINAL);
    assert.equal(existsSync(join(scratch.cwd, 'pwned.txt')), false);
  });
});
