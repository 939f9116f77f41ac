// The login link in real Chromium: the page trades the ticket in the fragment for the session cookie and
// leaves no trace of it — not in the address bar, not in the session history (Back does not lead to it),
// and not in the cookie, which holds a session secret, never the API token. The ticket then opens nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { openBrowser } from '../browser/helpers/browser.js';
import { startWarden } from '../browser/helpers/warden.js';
import { loginWithLink } from '../e2e/helpers/server-login.js';

test('the login link leaves no ticket in the address bar or the history', { timeout: 120_000 }, async (t) => {
  const warden = await startWarden(t, () => scenario().on('never').thenAnswer('unused').build());
  const link = warden.server.loginLink();
  const ticket = new URL(link).hash.slice(1);
  const { page, context } = await openBrowser(warden, { link });

  const url = page.url();
  assert.ok(url.startsWith(`${warden.server.url}/`), url);
  assert.ok(!url.includes(ticket), `the address bar holds no ticket: ${url}`);
  const seen = await page.evaluate<{ href: string; length: number }>(
    '({ href: location.href, length: history.length })',
  );
  assert.ok(!seen.href.includes(ticket), seen.href);

  const cookies = await context.cookies(warden.server.url);
  assert.deepEqual(
    cookies.map((c) => [c.name, c.httpOnly, c.sameSite]),
    [[`warden_session_${warden.server.port}`, true, 'Strict']],
  );
  assert.ok(cookies.every((c) => c.value !== warden.server.token && !c.value.includes(ticket)));

  // Walk back through every entry of this tab's history: none of them is the link.
  const visited: string[] = [page.url()];
  for (let i = 1; i < seen.length; i += 1) {
    const back = await page.goBack({ waitUntil: 'commit' });
    if (back === null) break;
    visited.push(page.url());
  }
  assert.ok(
    visited.every((entry) => !entry.includes(ticket)),
    visited.join(' '),
  );

  assert.equal((await loginWithLink(link)).status, 401, 'the ticket was spent');
});

test('a page whose browser session is revoked says it is not logged in', { timeout: 120_000 }, async (t) => {
  const warden = await startWarden(t, () => scenario().on('never').thenAnswer('unused').build());
  const { page } = await openBrowser(warden, { link: warden.server.loginLink() });
  await page.locator('#connection[data-state="live"]').waitFor();
  const revoked = await fetch(`${warden.server.url}/api/sessions`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${warden.server.token}` },
  });
  assert.deepEqual(await revoked.json(), { revoked: 1 });
  await page.getByRole('heading', { name: 'Not logged in' }).waitFor({ timeout: 15_000 });
});
