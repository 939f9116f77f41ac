// Model text is rendered as Markdown and stays inert. A model (or a subagent, or a tool result it quotes)
// writes script tags, event handlers, javascript: and data: links, SVG with script, iframes, forms, remote
// images and HTML inside code blocks; the page shows them as text or drops them, runs nothing, loads
// nothing, and keeps only http(s)/mailto links, opened without opener or referrer.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { openBrowser } from '../browser/helpers/browser.js';
import { startWarden } from '../browser/helpers/warden.js';

const HOSTILE = [
  '# Report',
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"><script>window.__pwned = "svg-script"</script></svg>',
  '<iframe src="javascript:window.__pwned=1"></iframe>',
  '<a href="#" onclick="window.__pwned = \'click\'">click me</a>',
  '<form action="https://evil.example"><button>go</button></form>',
  '<style>body { display: none }</style>',
  '[js link](javascript:window.__pwned=1) [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[vb](vbscript:msgbox) [ok](https://example.com/docs) [mail](mailto:someone@example.com)',
  '![remote](https://evil.example/track.png) ![inline](data:image/png;base64,iVBORw0KGgo=)',
  '<details open><summary>x</summary><p onmouseover="window.__pwned=1">hover</p></details>',
  '```html\n<script>window.__pwned = "code"</script><img src=x onerror=alert(1)>\n```',
  'Inline `<b onclick="x()">bold?</b>` and \u202Ereversed\u202C text.',
  '- [x] a task list item\n- [ ] one that is not done', // drawn as ☑/☐, never as a form control
].join('\n\n'); // blank lines: each is its own block (an HTML block runs to the next blank line)

interface Facts {
  dangerous: number;
  handlers: string[];
  links: [string | null, string | null, string, string][];
  code: string;
  markers: (string | null)[];
  text: string;
}

/** What a rendered box holds that could run, load or mislead (evaluated in the page, on the box). */
const FACTS = `(root) => ({
  dangerous: root.querySelectorAll('script, iframe, svg, img, form, style, object, embed, input, button').length,
  handlers: [...root.querySelectorAll('*')].flatMap((el) =>
    [...el.attributes].filter((a) => a.name.startsWith('on') || a.name === 'style').map((a) => a.name)),
  links: [...root.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.rel, a.target]),
  code: root.querySelector('pre code')?.textContent ?? '',
  markers: [...root.querySelectorAll('.ctl')].map((m) => m.textContent),
  text: root.textContent ?? '',
})`;

test('hostile Markdown from the model and a subagent stays inert', { timeout: 120_000 }, async (t) => {
  const warden = await startWarden(t, () =>
    scenario()
      .on('x')
      .callTool('Agent', {
        prompt: '[[sub]] report',
        description: 'Reporter',
        subagent_type: 'general-purpose',
      })
      .thenAnswer(HOSTILE)
      .subagent('sub')
      .thenReport(HOSTILE)
      .build(),
  );
  const thread = await warden.supervisor.createThread({ cwd: warden.scratch.cwd, mode: 'full-access' });
  await warden.supervisor.send(thread.id, '[[x]] go');
  await warden.waitForEvent((e) => e.type === 'subagent.ended' && e.threadId === thread.id);
  await warden.waitForEvent((e) => e.type === 'run.ended' && e.threadId === thread.id);
  const requests: string[] = [];
  const { page, context } = await openBrowser(warden);
  context.on('request', (request) => requests.push(request.url()));
  await page.goto(`${warden.server.url}/#/threads/${thread.id}`);
  const answer = page.locator('.message.assistant:not(.from-subagent) .markdown').first();
  await answer.locator('h1', { hasText: 'Report' }).waitFor();
  await page.locator('.subagent-report .markdown h1', { hasText: 'Report' }).waitFor();
  // Hover and click what could carry a handler.
  await answer.getByText('click me').click();
  await answer
    .getByText('hover')
    .hover()
    .catch(() => {});

  const boxes = [
    answer,
    page.locator('.message.assistant.from-subagent .markdown').first(),
    page.locator('.subagent-report .markdown'),
  ];
  for (const [index, box] of boxes.entries()) {
    await box.evaluate((el, n) => {
      el.setAttribute('data-probe', String(n));
    }, index);
    const found = await page.evaluate<Facts>(`(${FACTS})(document.querySelector('[data-probe="${index}"]'))`);
    assert.equal(found.dangerous, 0, 'no element that runs, loads or submits');
    assert.deepEqual(found.handlers, [], 'no event handler or style attribute');
    for (const [label, href, rel, target] of found.links) {
      if (href === null) continue;
      assert.match(href, /^(https:|mailto:)/, `${label}: only http(s) and mailto`);
      assert.equal(rel, 'noopener noreferrer');
      assert.equal(target, '_blank');
    }
    assert.deepEqual(
      found.links.filter(([, href]) => href !== null).map(([label]) => label),
      ['ok', 'mail'],
    );
    assert.match(found.code, /<script>window.__pwned = "code"<\/script><img src=x onerror=alert\(1\)>/);
    assert.match(found.text, /<script>window.__pwned = "script"<\/script>/, 'raw HTML is shown as text');
    assert.match(found.text, /image: remote \(https:\/\/evil.example\/track.png\)/, 'an image is a note');
    assert.deepEqual(found.markers, ['⟨U+202E⟩', '⟨U+202C⟩'], 'bidi controls are shown');
  }
  assert.equal(await page.evaluate('window.__pwned'), undefined, 'nothing ran');
  assert.deepEqual(
    requests.filter((url) => !url.startsWith(warden.server.url)),
    [],
    'nothing was fetched from elsewhere',
  );
});
