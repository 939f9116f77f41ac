// What the installable app adds to the static files: the manifest under its own type, the service worker
// as a script at the top (so its scope is the whole app), and PNG icons one level down — and nothing else
// from that level (another type, a dotfile, a way back up).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { readStaticFile } from '../../src/server/static-files.js';

const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));

describe('the app files', () => {
  it('serves the manifest, the service worker and the icons with their types', async () => {
    assert.equal(
      (await readStaticFile(WEB_ROOT, '/manifest.webmanifest'))?.type,
      'application/manifest+json',
    );
    assert.equal((await readStaticFile(WEB_ROOT, '/sw.js'))?.type, 'text/javascript; charset=utf-8');
    for (const icon of ['icon-192', 'icon-512', 'maskable-512', 'badge-96', 'bell-48'])
      assert.equal((await readStaticFile(WEB_ROOT, `/icons/${icon}.png`))?.type, 'image/png', icon);
  });

  it('serves nothing else below the top', async () => {
    for (const path of [
      '/icons/icon.svg',
      '/icons/../tsconfig.json',
      '/icons/%2e%2e/tsconfig.json',
      '/icons/.hidden.png',
      '/icons/sub/x.png',
      '/icons/',
      '/other/icon-192.png',
    ])
      assert.equal(await readStaticFile(WEB_ROOT, path), undefined, path);
  });
});
