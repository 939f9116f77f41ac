// What the cards and forms give each control, measured in Chromium. On a 390×844 phone: the top bar says
// "Live" in full, the deny reason has room to be read back, and the scopes of "always allow" sit side by
// side, each label in one piece. On a laptop: the plan's feedback box is wide, the "Start in plan mode"
// box is a checkbox's size, and while a card waits to be seen (web/arming.js) its answer buttons look as
// always — nothing pale as if disabled — with a ring on each that says they wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { Locator } from 'playwright-core';

import { decisionsScript } from '../e2e/helpers/decisions-scripts.js';
import { whenActionable } from './helpers/actionable.js';
import { LAPTOP, PHONE, openBrowser } from './helpers/browser.js';
import { assertInsideWidth, assertNoSidewaysScroll, outOfWidth, textIsWhole } from './helpers/layout.js';
import { writeScript } from './helpers/scenarios.js';
import { threadWaitingForApproval } from './helpers/threads.js';
import { startWarden } from './helpers/warden.js';

/** A Bash call that asks, and offers "always allow" for its command. */
const COMMAND = 'touch one.txt';

test(
  'a card on a phone: Live in full, room for the reason, the scopes on one line',
  { timeout: 120_000 },
  async (t) => {
    const warden = await startWarden(t, () => writeScript(['one']));
    await threadWaitingForApproval(warden, '[[one]] make a file');
    const { page } = await openBrowser(warden, { viewport: PHONE, mobile: true });
    const card = page.locator('.approval', { hasText: COMMAND });
    await card.waitFor();
    await whenActionable(card);

    await assertNoSidewaysScroll(page, 'the inbox on a phone');
    const live = page.locator('#connection-label');
    assert.equal(await live.textContent(), 'Live');
    const shown = await textIsWhole(live);
    assert.ok(shown.whole, `"Live" is not cut (${shown.scrollWidth} > ${shown.clientWidth})`);
    for (const name of ['Inbox', 'New thread'])
      await assertInsideWidth(page.locator('.topbar nav a', { hasText: name }), `the ${name} link`);

    assert.deepEqual(await outOfWidth(card), [], 'all of the card lies inside the screen');
    const reason = await width(card.getByLabel('Reason for denying (the agent reads it)'));
    assert.ok(reason >= 200, `the deny reason box is wide enough to read back (${reason}px)`);

    // The three scopes: side by side, on one line, each label whole.
    const labels = await card.locator('.always-scope .segment label').evaluateAll((all) =>
      all.map((label) => {
        const box = label.getBoundingClientRect();
        const style = label.ownerDocument.defaultView.getComputedStyle(label);
        const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
        return {
          text: label.textContent as string,
          top: box.top as number,
          height: box.height as number,
          oneLine: parseFloat(style.lineHeight) + padding + 2,
          whole: label.scrollWidth <= label.clientWidth,
        };
      }),
    );
    assert.deepEqual(
      labels.map((label) => label.text),
      ['this CLI session', 'this thread', 'this project'],
    );
    for (const label of labels) {
      assert.ok(Math.abs(label.top - labels[0]!.top) < 1, `"${label.text}" is on the line of the others`);
      assert.ok(
        label.height <= label.oneLine,
        `"${label.text}" is one line high (${label.height} > ${label.oneLine})`,
      );
      assert.ok(label.whole, `"${label.text}" is not cut`);
    }
  },
);

test(
  'the plan’s feedback box is wide; the plan-mode checkbox is a checkbox',
  { timeout: 120_000 },
  async (t) => {
    const warden = await startWarden(t, () => decisionsScript());
    const thread = await warden.supervisor.createThread({
      cwd: warden.scratch.cwd,
      mode: 'supervised',
      plan: true,
    });
    await warden.supervisor.send(thread.id, '[[plan]] add a health check');
    const { page } = await openBrowser(warden, { viewport: LAPTOP });
    const card = page.locator('.approval.plan-approval');
    await card.locator('.plan-text h1', { hasText: 'Add a health check' }).waitFor();
    for (const viewport of [{ width: 1280, height: 800 }, LAPTOP]) {
      await page.setViewportSize(viewport);
      const feedback = await width(card.getByLabel(/Send back with feedback/));
      assert.ok(feedback >= 400, `at ${viewport.width}: the feedback box shows a sentence (${feedback}px)`);
      await assertNoSidewaysScroll(page, `the plan card at ${viewport.width}`);
    }

    await page.goto(`${warden.server.url}/#/new`);
    const box = page.getByLabel(/Start in plan mode/);
    await box.waitFor();
    const size = await box.boundingBox();
    assert.ok(size !== null);
    assert.ok(size.width <= 24 && size.height <= 24, `a checkbox's size (${size.width}×${size.height})`);
    assert.ok(size.width >= 12 && size.height >= 12, `big enough to see (${size.width}×${size.height})`);
    await page.getByText(/Start in plan mode/).click();
    assert.equal(await box.isChecked(), true, 'a click on its words ticks it');
  },
);

test(
  'while a card waits to be seen, its buttons look as always and show a ring',
  { timeout: 120_000 },
  async (t) => {
    const warden = await startWarden(t, () => writeScript(['one']));
    await threadWaitingForApproval(warden, '[[one]] make a file');
    // Narrow enough that the project scope's note (where the rule is written) takes two lines.
    const { page } = await openBrowser(warden, { viewport: { width: 900, height: 800 } });
    const card = page.locator('.approval', { hasText: COMMAND });
    await card.waitFor();
    await whenActionable(card);

    // Choosing the project scope lengthens the note, so the card grows and waits to be seen again.
    // Code run in the page names no function of its own: the test's compiler would wrap it in a helper
    // that the page lacks.
    const looks = await card.evaluate(
      (element) =>
        new Promise<{ waiting: Look[]; armed: Look[] }>((resolve) => {
          const view = element.ownerDocument.defaultView;
          let waiting: Look[] | undefined;
          const watcher = new view.MutationObserver(() => {
            const looks: Look[] = [...element.querySelectorAll('button[data-approval-id]')].map((button) => {
              const style = view.getComputedStyle(button);
              return {
                name: button.textContent.trim(),
                actionable: element.dataset.actionable,
                opacity: style.opacity,
                filter: style.filter,
                color: style.color,
                background: style.backgroundColor,
                border: style.borderColor,
                ring: view.getComputedStyle(button, '::after').content,
                ariaDisabled: button.getAttribute('aria-disabled'),
              };
            });
            if (element.dataset.actionable === 'false' && waiting === undefined) waiting = looks;
            if (element.dataset.actionable === 'true' && waiting !== undefined) {
              watcher.disconnect();
              resolve({ waiting, armed: looks });
            }
          });
          watcher.observe(element, { attributes: true, attributeFilter: ['data-actionable'] });
          // Only so that a card that never waits fails the test at once instead of hanging it.
          view.setTimeout(() => resolve({ waiting: waiting ?? [], armed: [] }), 5000);
          [...element.querySelectorAll('.always-scope label')]
            .find((label) => label.textContent === 'this project')
            .click();
        }),
    );
    assert.ok(looks.armed.length > 0, 'the card waited after the click, then took answers again');
    assert.deepEqual(
      looks.waiting.map((look) => look.name),
      ['Approve edited', 'Approve once a', 'Always allow A', 'Deny d', 'Deny and stop turn'],
    );
    for (const [index, waiting] of looks.waiting.entries()) {
      const armed = looks.armed[index]!;
      const name = waiting.name;
      assert.equal(waiting.actionable, 'false');
      assert.equal(waiting.opacity, '1', `${name} keeps its full opacity while waiting`);
      assert.equal(waiting.filter, 'none', `${name} is not greyed out`);
      assert.deepEqual(
        [waiting.color, waiting.background, waiting.border],
        [armed.color, armed.background, armed.border],
        `${name} keeps its colours while waiting`,
      );
      assert.notEqual(waiting.ring, 'none', `${name} shows the waiting ring`);
      assert.equal(waiting.ariaDisabled, 'true', `${name} tells assistive technology it waits`);
      assert.equal(armed.actionable, 'true');
      assert.equal(armed.ring, 'none', `${name} drops the ring once it takes answers`);
      assert.equal(armed.ariaDisabled, null);
    }
    // The rule editor's buttons give no answer: they never wait.
    await card.getByText('Narrow the rule').click();
    await card.evaluate('window.scrollBy(0, 1)');
    const reset = card.getByRole('button', { name: 'Back to the rules offered' });
    assert.equal(await reset.getAttribute('aria-disabled'), null);
  },
);

async function width(element: Locator): Promise<number> {
  const box = await element.boundingBox();
  assert.ok(box !== null, 'the element is shown');
  return box.width;
}

interface Look {
  name: string;
  actionable: string;
  opacity: string;
  filter: string;
  color: string;
  background: string;
  border: string;
  ring: string;
  ariaDisabled: string | null;
}
