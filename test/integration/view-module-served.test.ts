// What a person sees of a conversation is decided once (src/view/): the browser loads that module from the
// server under /view/, and the server folds its `timeline` with the same one. Run here as the browser gets
// it — the files fetched from the server, imported from what was fetched — over the events the server
// sends, it must give exactly the server's timeline; and no file of web/ may carry a fold or marker rules
// of its own, so a second copy cannot come back silently.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { createServer } from '../../src/server/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { frames, openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';

const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));
const VIEW_ROOT = fileURLToPath(new URL('../../src/view/', import.meta.url));

/** Fetches `/view/<name>` and every module it imports, relative to it, into `dir`. */
async function fetchModule(base: string, name: string, dir: string, fetched = new Set<string>()) {
  if (fetched.has(name)) return;
  fetched.add(name);
  const response = await fetch(`${base}/view/${name}`);
  assert.equal(response.status, 200, name);
  assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8', name);
  const text = await response.text();
  assert.equal(text, readFileSync(join(VIEW_ROOT, name), 'utf8'), `${name} is served as it is`);
  writeFileSync(join(dir, name), text);
  for (const [, imported] of text.matchAll(/^import [^;]* from '\.\/([\w.-]+)';$/gm))
    await fetchModule(base, imported!, dir, fetched);
}

describe('one view module for the browser and the server', () => {
  it("the served fold over the served events is the server's timeline", async (t) => {
    const { sup, made, thread, dataDir } = await openFakeSupervisor(t);
    const { fake, uuid } = await startTurn(sup, made, thread.id, 'look around');
    fake.emit({
      type: 'assistant',
      parent_tool_use_id: null,
      message: { id: 'msg_0', content: [{ type: 'text', text: 'Looking \u202e now' }] },
    });
    fake.emit(frames.agentCall('toolu_agent'));
    fake.emit(frames.taskStarted('task-1', 'toolu_agent'));
    const asked = fake.ask('Bash', { command: 'ls -la' });
    const { data } = await waitForEvent(sup, 'approval.requested');
    await sup.decide(data.approvalId, { behavior: 'allow' });
    await asked.result;
    fake.emit(frames.taskNotification('task-1'));
    fake.emit(
      frames.result([uuid], {
        total_cost_usd: 0.25,
        modelUsage: {
          'mock-model': {
            inputTokens: 10,
            outputTokens: 5,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
          },
        },
      }),
    );
    await waitForEvent(sup, 'run.ended');

    const server = await createServer({
      supervisor: sup,
      dataDir,
      webRoot: WEB_ROOT,
      onError: () => undefined,
    });
    t.after(() => server.close());
    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      assert.equal(response.status, 200, path);
      return (await response.json()) as Record<string, unknown>;
    };
    const detail = await get(`/api/threads/${thread.id}`);
    const events = await get(`/api/threads/${thread.id}/events?since=0`);
    assert.equal(events.more, false);

    const dir = mkdtempSync(join(tmpdir(), 'warden-view-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    await fetchModule(server.url, 'timeline.js', dir);
    const served = (await import(pathToFileURL(join(dir, 'timeline.js')).href)) as {
      buildTimeline: (events: unknown) => unknown[];
    };
    const timeline = served.buildTimeline(events.events);
    assert.deepEqual(timeline, detail.timeline);
    assert.deepEqual(
      (timeline as { kind: string }[]).map((item) => item.kind),
      ['run', 'user', 'assistant', 'tool_call', 'subagent', 'tool_call', 'subagent_report'],
      "the thread the test made: its run, prompt, text, Agent call, subagent, the main agent's Bash call, the report",
    );
  });

  it('web/ imports the fold and the marker rules from /view/ and carries no copy of them', () => {
    const views = new Set(readdirSync(VIEW_ROOT).filter((name) => name.endsWith('.js')));
    const ownRules = [
      /function buildTimeline\b/,
      /function withGroupHeaders\b/,
      /function usageSince\b/,
      /function segments\b/,
      /\\p\{Cf\}/,
    ];
    const importers: string[] = [];
    for (const name of readdirSync(WEB_ROOT).filter((file) => file.endsWith('.js'))) {
      const text = readFileSync(join(WEB_ROOT, name), 'utf8');
      for (const rule of ownRules) assert.doesNotMatch(text, rule, `${name} has its own copy`);
      for (const [, imported] of text.matchAll(/from '\/view\/([\w.-]+)'/g)) {
        assert.ok(views.has(imported!), `${name} imports /view/${imported}, which src/view/ lacks`);
        importers.push(`${name}:${imported}`);
      }
    }
    for (const expected of ['thread-view.js:timeline.js', 'visible-text.js:visible-text.js'])
      assert.ok(importers.includes(expected), `${expected} imports the shared module`);
  });
});
