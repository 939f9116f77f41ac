// The server hands out the UI's own files and nothing else: the files a page loads (.html, .js, .css,
// icons) at the top of the web root, never configuration (tsconfig.json), dotfiles, other types, or a link
// that leads out of the root; and the shared view module's scripts under /view/, nothing else of its
// folder. Every response, errors included, says `X-Content-Type-Options: nosniff`.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { createServer } from '../../src/server/index.js';
import { startServerSession } from '../e2e/helpers/server-session.js';

async function get(url: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  await response.arrayBuffer();
  return response;
}

describe('static files', () => {
  it("serves the package's UI files and not its tsconfig.json", async (t) => {
    const { server } = await startServerSession(t);
    for (const path of ['/', '/index.html', '/app.js', '/style.css'])
      assert.equal((await get(`${server.url}${path}`)).status, 200, path);
    for (const path of ['/tsconfig.json', '/%74sconfig.json', '/../package.json', '/types.d.ts'])
      assert.equal((await get(`${server.url}${path}`)).status, 404, path);
  });

  it('serves only page files from the top of the web root, and no link out of it', async (t) => {
    const { scratch, sup, dataDir } = await startServerSession(t);
    const webRoot = join(scratch.dir, 'web');
    mkdirSync(join(webRoot, 'sub'), { recursive: true });
    const files = {
      'index.html': '<!doctype html><title>x</title>',
      'page.js': 'export {};',
      'look.css': 'body {}',
      'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'icon.png': 'png',
      'favicon.ico': 'ico',
      'data.json': '{"secret":1}',
      'notes.txt': 'secret',
      '.env': 'SECRET=1',
      '.hidden.js': 'export {};',
      'page.js.map': '{}',
      'sub/deep.js': 'export {};',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(webRoot, name), text);
    writeFileSync(join(scratch.dir, 'outside.js'), 'export const secret = 1;');
    symlinkSync(join(scratch.dir, 'outside.js'), join(webRoot, 'linked.js'));
    const server = await createServer({ supervisor: sup, dataDir, webRoot, onError: () => undefined });
    t.after(() => server.close());

    const allowed = ['/', '/index.html', '/page.js', '/look.css', '/icon.svg', '/icon.png', '/favicon.ico'];
    for (const path of allowed) {
      const response = await get(`${server.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
    }
    const refused = [
      '/data.json',
      '/notes.txt',
      '/.env',
      '/.hidden.js',
      '/page.js.map',
      '/sub/deep.js',
      '/sub/',
      '/linked.js',
      '/%2e%2e/outside.js',
      '/page.js%00.html',
    ];
    for (const path of refused) {
      const response = await get(`${server.url}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
    }
  });

  it('serves the shared view module under /view/: its top-level scripts only, with the page headers', async (t) => {
    const { server } = await startServerSession(t);
    const page = await get(`${server.url}/app.js`);
    for (const name of ['timeline.js', 'visible-text.js', 'run-usage.js']) {
      const response = await fetch(`${server.url}/view/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8', name);
      assert.equal(
        await response.text(),
        readFileSync(fileURLToPath(new URL(`../../src/view/${name}`, import.meta.url)), 'utf8'),
      );
      for (const header of [
        'content-security-policy',
        'x-content-type-options',
        'x-frame-options',
        'cache-control',
      ])
        assert.equal(
          response.headers.get(header),
          page.headers.get(header),
          `${name}: ${header} as for web/`,
        );
    }
    const refused = [
      '/view/',
      '/view',
      '/view/timeline.d.ts',
      '/view/timeline.js.map',
      '/view/.timeline.js',
      '/view/../package.json',
      '/view/%2e%2e/server/static-files.ts',
      '/view/%2e%2e%2fserver%2fapp.js',
      '/view/..%2f..%2fpackage.json',
      '/view/sub/x.js',
      '/view/timeline.js%00.html',
      '/view/missing.js',
    ];
    for (const path of refused) {
      const response = await get(`${server.url}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
    }
  });

  it('sends nosniff with every API error and with a refused WebSocket upgrade', async (t) => {
    const { server, api } = await startServerSession(t);
    const cases = [
      await api('/api/threads', { auth: false }),
      await api('/api/nothing-here'),
      await api('/api/threads', { raw: '{"cwd": ' }),
      await api('/api/threads', { raw: 'x'.repeat(70_000) }),
      await api('/api/threads', { body: {}, headers: { origin: 'http://evil.example' } }),
      await api('/api/threads/nope'),
      await api('/api/threads'),
    ];
    assert.deepEqual(
      cases.map((c) => c.status),
      [401, 404, 400, 413, 403, 404, 200],
    );
    for (const c of cases) assert.equal(c.headers.get('x-content-type-options'), 'nosniff');

    const upgrade = await new Promise<string | undefined>((resolve, reject) => {
      request(`${server.url}/ws`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      })
        .on('response', (response) => {
          response.resume();
          resolve(response.headers['x-content-type-options'] as string | undefined);
        })
        .on('error', reject)
        .end();
    });
    assert.equal(upgrade, 'nosniff');
  });
});
