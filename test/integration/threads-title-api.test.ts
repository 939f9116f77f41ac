// Thread titles through the API: from the first prompt (first line, leading test markers left out,
// invisible characters as markers, cut to 60 characters), set at creation, renamed with PATCH (validated,
// authenticated like the rest), carried by the log as `thread.titled` and shown on approval items. A thread
// from before titles were recorded is named by its first prompt when read.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

import { SqliteStore } from '../../src/store/index.js';
import { DATABASE_FILE, Supervisor } from '../../src/supervisor/index.js';
import { titleFromName, titleFromPrompt } from '../../src/supervisor/runtime/thread-title.js';
import { scenario } from '../../src/testing/index.js';
import { startServerSession } from '../e2e/helpers/server-session.js';

describe('thread titles: derived', () => {
  it('takes the first visible line of the prompt, without leading markers, one line, at most 60', () => {
    assert.equal(titleFromPrompt('[[bg]] [[x-1]] Check the disk\nthen the rest'), 'Check the disk');
    assert.equal(titleFromPrompt('\n\n   Fix the build   \n'), 'Fix the build');
    assert.equal(titleFromPrompt('Use [[bg]] inside'), 'Use [[bg]] inside', 'only leading markers go');
    assert.equal(titleFromPrompt('[[bg]]   \n  '), null);
    assert.equal(titleFromPrompt('a\u202Eb\u200Bc\u001b[2J'), 'a⟨U+202E⟩b⟨U+200B⟩c⟨U+001B⟩[2J');
    const long = titleFromPrompt('x'.repeat(100)) ?? '';
    assert.equal([...long].length, 60);
    assert.ok(long.endsWith('…'));
    assert.equal(titleFromName('  Release\nnotes  '), 'Release notes');
    assert.equal(titleFromName(' \n '), null);
  });
});

describe('thread titles: API', () => {
  it('names a thread by its first prompt, renames it, and refuses bad titles', async (t) => {
    const script = scenario().on('t').thenAnswer('ok').build();
    const { api, sup, scratch } = await startServerSession(t, { script });
    const created = await api('/api/threads', {
      method: 'POST',
      body: { cwd: scratch.cwd, mode: 'supervised', prompt: '[[t]] Tidy the README\nmore' },
    });
    assert.equal(created.status, 201);
    const id: string = created.json.thread.id;
    assert.equal(created.json.thread.title, 'Tidy the README');
    const events = sup.readEvents({ threadId: id }).filter((e) => e.type === 'thread.titled');
    assert.deepEqual(
      events.map((e) => e.data),
      [{ title: 'Tidy the README', source: 'prompt' }],
    );
    const listed = await api('/api/threads');
    assert.equal(listed.json.threads.find((x: { id: string }) => x.id === id)?.title, 'Tidy the README');

    // A second message does not rename it.
    await sup.send(id, 'And the changelog');
    assert.equal(sup.getThread(id).thread.title, 'Tidy the README');

    const renamed = await api(`/api/threads/${id}`, { method: 'PATCH', body: { title: ' Docs pass ' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.json.thread.title, 'Docs pass');
    assert.equal((await api(`/api/threads/${id}`)).json.thread.title, 'Docs pass');

    for (const body of [{ title: '' }, { title: '   ' }, { title: 'x'.repeat(201) }, { title: 5 }, {}])
      assert.equal(
        (await api(`/api/threads/${id}`, { method: 'PATCH', body })).status,
        400,
        JSON.stringify(body),
      );
    const anonymous = await api(`/api/threads/${id}`, { method: 'PATCH', body: { title: 'x' }, auth: false });
    assert.equal(anonymous.status, 401);
    assert.equal(sup.getThread(id).thread.title, 'Docs pass', 'nothing refused changed it');

    const named = await api('/api/threads', {
      method: 'POST',
      body: { cwd: scratch.cwd, mode: 'supervised', title: 'Named at birth' },
    });
    assert.equal(named.json.thread.title, 'Named at birth');
  });

  it('names a thread written before titles existed by its first prompt', async (t) => {
    // A log as an older Warden left it: a thread and its first run, no `thread.titled`.
    const dataDir = mkdtempSync(join(tmpdir(), 'warden-title-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const store = SqliteStore.open(join(dataDir, DATABASE_FILE));
    const rules = { allow: [], deny: [] };
    store.commit('old', [
      { type: 'thread.created', data: { cwd: dataDir, mode: 'supervised', model: null, rules } },
      {
        type: 'run.created',
        data: {
          runId: 'r1',
          status: 'running',
          trigger: 'human',
          prompt: '[[old]] Old work\nsecond line',
          userMessageId: null,
          generation: 1,
        },
      },
    ]);
    store.close();
    const sup = await Supervisor.open({ dataDir, detached: false });
    t.after(() => sup.close());
    assert.equal(sup.getThread('old').thread.title, 'Old work');
    assert.deepEqual(
      sup.listThreads().map((thread) => thread.title),
      ['Old work'],
    );
  });
});
