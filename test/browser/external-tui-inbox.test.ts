// A person's own `claude` TUI in a terminal (tmux), with Warden's hooks installed in its private HOME,
// answered from the web inbox in Chromium: its Bash request shows as a card, Approve runs the command in
// the terminal's session; a second request denied with a reason — the model reads the reason. Then
// Warden is stopped: the next request is asked in the TUI's own dialog at once, and nothing is allowed.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { poll, scenario } from '../../src/testing/index.js';
import { startExternalWorld } from '../e2e/helpers/external-session.js';
import { spawnWarden } from '../e2e/helpers/server-command.js';
import { HAS_TMUX, startTui } from '../e2e/helpers/tui-session.js';
import { clickAnswer } from './helpers/actionable.js';
import { openBrowser } from './helpers/browser.js';

describe('the claude TUI answered from the web inbox', { skip: !HAS_TMUX && 'tmux is not installed' }, () => {
  it('approve runs it, deny tells the model why, and with Warden stopped the TUI asks itself', async (t) => {
    const world = await startExternalWorld(
      t,
      scenario()
        .on({ phrase: 'make the file' })
        .callTool('Bash', { command: 'touch from-tui', description: 'Make the file' })
        .thenAnswer('made from the tui')
        .on({ phrase: 'remove the keeper' })
        .callTool('Bash', { command: 'rm -f keeper', description: 'Remove it' })
        .thenAnswer((ctx) => `the model read: ${ctx.toolResults[0]?.text ?? 'nothing'}`)
        .on({ phrase: 'make a third' })
        .callTool('Bash', { command: 'touch third', description: 'Make a third' })
        .thenAnswer('third done')
        .build(),
    );
    const { scratch } = world.session;
    writeFileSync(join(scratch.cwd, 'keeper'), 'kept\n');
    const tui = await startTui(t, world);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/login#\S+)/.exec(world.server().process.stdout())?.[1] ?? '';
    const { page, screenshot } = await openBrowser(
      { scratch, beforeClose: (fn) => world.session.world.defer(fn), server: { loginLink: () => link } },
      { link },
    );

    const mock = world.session.mock;
    if (mock === undefined) throw new Error('no mock model');
    /** When the model's reply asking for the call of the turn started with `prompt` was complete. */
    const modelAsked = (prompt: string) =>
      mock
        .waitForRequest(
          (r) =>
            r.done && r.lastUserText?.includes(prompt) === true && (r.reply ?? []).includes('tool_use:Bash'),
        )
        .then(() => Date.now());
    const firstAsked = modelAsked('make the file');
    tui.send('make the file');
    await poll(() => /Do you want to proceed\?/u.test(tui.screen()), { what: () => tui.screen() });
    const withWarden = Date.now() - (await firstAsked);
    const card = page.locator('.approval', { hasText: 'touch from-tui' });
    await card.waitFor();
    assert.match(tui.screen(), /Waiting for permission|Do you want to proceed\?/u, 'the TUI waits');
    // `warden inbox` in another terminal lists the same request, as an external session's.
    const inbox = spawnWarden(['inbox', '--json', '--data-dir', world.session.dataDir], world.session.env, {
      closeStdin: true,
    });
    assert.equal((await inbox.exited).code, 0, inbox.stderr());
    const listed = (JSON.parse(inbox.stdout()) as { approvals: { external: boolean; input: unknown }[] })
      .approvals;
    assert.deepEqual(
      listed.map((row) => [row.external, row.input]),
      [[true, { command: 'touch from-tui', description: 'Make the file' }]],
    );
    await screenshot('external-tui-card');
    await clickAnswer(card, card.getByRole('button', { name: /Approve once/u }));
    await card.waitFor({ state: 'detached' });
    await poll(() => existsSync(join(scratch.cwd, 'from-tui')), { what: () => tui.screen() });
    await poll(() => /made from the tui/u.test(tui.screen()), { what: () => tui.screen() });

    await tui.another('second');
    tui.send('remove the keeper');
    const second = page.locator('.approval', { hasText: 'rm -f keeper' });
    await second.waitFor();
    await second.locator('input.deny-message').fill('keep that file, it is the fixture');
    await clickAnswer(second, second.getByRole('button', { name: /^Deny( d)?$/u }));
    await second.waitFor({ state: 'detached' });
    await poll(() => /the model read: .*keep that file, it is the fixture/u.test(tui.screen()), {
      what: () => tui.screen(),
    });
    assert.equal(existsSync(join(scratch.cwd, 'keeper')), true, 'the denied command did not run');

    await world.stopServer('SIGINT');
    await tui.another('third');
    const requested = modelAsked('make a third');
    tui.send('make a third');
    await poll(() => /Do you want to proceed\?/u.test(tui.screen()), { what: () => tui.screen() });
    const asked = Date.now() - (await requested);
    t.diagnostic(
      `the TUI's dialog after the model asked for the call: ${withWarden} ms with Warden waiting, ${asked} ms with Warden stopped`,
    );
    assert.ok(asked < 10_000, 'a bound that only catches a hang');
    assert.equal(existsSync(join(scratch.cwd, 'third')), false, 'nothing is allowed without Warden');
    tui.keys('Escape');
  });
});
