// The interactive Claude Code TUI, started by a person in a terminal (a tmux pane here), with Warden's
// hooks in its settings: its Bash request shows in Warden's inbox while the TUI shows its own dialog, and
// Warden's answer runs the command in the terminal's session. What this CLI does with a key pressed in
// its dialog while the hook waits is checked too: nothing (the key is dropped); once the hook's wait is
// over (the approval closed out, `hook_wait_over`), the dialog is the person's to answer.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import type { ApprovalRecord } from '../../src/store/records.js';
import { poll, scenario } from '../../src/testing/index.js';
import { startExternalWorld } from './helpers/external-session.js';
import { HAS_TMUX, startTui } from './helpers/tui-session.js';

describe(
  'the interactive claude TUI with warden hook run',
  { skip: !HAS_TMUX && 'tmux is not installed' },
  () => {
    it("asks in the inbox while the TUI waits, and the terminal's dialog answers once the hook gives up", async (t) => {
      const world = await startExternalWorld(
        t,
        scenario()
          .on({ phrase: 'make the file' })
          .callTool('Bash', { command: 'touch from-tui', description: 'Make the file' })
          .thenAnswer((ctx) => (ctx.toolResults[0]?.isError === true ? 'refused' : 'made from the tui'))
          .on({ phrase: 'make another' })
          .callTool('Bash', { command: 'touch answered-in-terminal', description: 'Make another' })
          .thenAnswer('made after the terminal said yes')
          .build(),
        8_000,
      );
      const { scratch } = world.session;
      const tui = await startTui(t, world);
      const screen = () => tui.screen();
      tui.send('make the file');

      const pending = await poll(
        async () =>
          (await world.api<{ approvals: ApprovalRecord[] }>('GET', '/api/approvals?status=pending')).body
            .approvals[0],
        { what: () => `an approval from the TUI:\n${screen()}` },
      );
      assert.equal(pending?.toolName, 'Bash', screen());
      const whileWaiting = screen();
      const decided = await world.api('POST', `/api/approvals/${pending?.id ?? ''}/decision`, {
        behavior: 'allow',
      });
      assert.equal(decided.status, 200);
      await poll(() => existsSync(join(scratch.cwd, 'from-tui')), { what: () => `the file:\n${screen()}` });
      const after = await poll(() => /made from the tui/.test(screen()) && screen(), {
        what: () => screen(),
      });
      assert.ok(after);
      assert.match(whileWaiting, /Waiting for permission|Do you want to proceed\?/, 'the TUI waits, asking');

      // Answered in the terminal first (another session, in a new window): the CLI ends the hook, and
      // Warden closes its approval out.
      await tui.another('second');
      tui.send('make another');
      const second = await poll(
        async () =>
          (await world.api<{ approvals: ApprovalRecord[] }>('GET', '/api/approvals?status=pending')).body
            .approvals[0],
        { what: () => screen() },
      );
      assert.ok(second !== undefined, screen());
      await poll(() => /Do you want to proceed\?/.test(screen()), { what: () => screen() });
      // A key pressed in the terminal while the hook waits: this CLI does not act on it (checked below).
      tui.keys('1');
      const closed = await poll(
        async () => {
          const { body } = await world.api<{ approvals: ApprovalRecord[] }>('GET', '/api/approvals');
          const found = body.approvals.find((approval) => approval.id === second.id);
          return found?.status === 'pending' ? undefined : found;
        },
        { timeoutMs: 30_000 },
      );
      const madeEarly = existsSync(join(scratch.cwd, 'answered-in-terminal'));
      t.diagnostic(
        `closed out ${closed?.status} (${closed?.reason}); made while the hook waited: ${madeEarly}`,
      );
      // Once the hook has given up with no answer, the terminal's dialog is the person's.
      const queued = await poll(() => existsSync(join(scratch.cwd, 'answered-in-terminal')), {
        timeoutMs: 5_000,
      });
      t.diagnostic(`made by the early key once the hook ended: ${queued === true}`);
      if (queued !== true) tui.keys('1');
      const made = await poll(() => existsSync(join(scratch.cwd, 'answered-in-terminal')), {
        timeoutMs: 20_000,
      });
      assert.ok(made, `the terminal's yes ran the command:\n${screen()}`);
    });
  },
);
