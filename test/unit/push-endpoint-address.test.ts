// A push endpoint comes from an API caller and the server POSTs to it: one on this machine or its private
// network is refused unless the server was started to accept local push services (tests).
import assert from 'node:assert/strict';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ApiError } from '../../src/server/http-error.js';
import { isLocalHost } from '../../src/server/notify/local-address.js';
import { PushSubscriptions } from '../../src/server/notify/push-subscriptions.js';

const LOCAL = [
  'https://127.0.0.1/x',
  'https://127.1.2.3:5432/x',
  'https://2130706433/x',
  'https://0x7f.1/x',
  'https://localhost/x',
  'https://api.localhost./x',
  'https://[::1]/x',
  'https://[::]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://[fe80::1]/x',
  'https://[fd00::5]/x',
  'https://10.1.2.3/x',
  'https://172.20.0.1/x',
  'https://192.168.1.1/x',
  'https://169.254.169.254/latest/meta-data',
  'https://100.64.0.1/x',
  'https://0.0.0.0/x',
];
const PUBLIC = [
  'https://fcm.googleapis.com/fcm/send/abc',
  'https://updates.push.services.mozilla.com/wpush/v2/abc',
  'https://8.8.8.8/x',
  'https://172.32.0.1/x',
  'https://[2001:db8::1]/x',
];

function keys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe('push endpoints: local and private addresses', () => {
  it('isLocalHost names loopback, private, link-local and unspecified hosts, and nothing else', () => {
    for (const url of LOCAL) assert.equal(isLocalHost(new URL(url).hostname), true, url);
    for (const url of PUBLIC) assert.equal(isLocalHost(new URL(url).hostname), false, url);
  });

  it('a subscription to one is refused with a clear 400, unless local push services are allowed', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-push-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const strict = new PushSubscriptions(dir);
    for (const endpoint of LOCAL) {
      assert.throws(
        () => strict.add({ endpoint, keys: keys() }),
        (error: unknown) =>
          error instanceof ApiError &&
          error.status === 400 &&
          /not a local or private address/.test(error.message),
        endpoint,
      );
    }
    assert.equal(strict.list().length, 0, 'nothing was stored');
    assert.equal(strict.add({ endpoint: PUBLIC[0] ?? '', keys: keys() }).endpoint, PUBLIC[0]);
    const local = new PushSubscriptions(mkdtempSync(join(dir, 'local-')), { allowLocalEndpoints: true });
    assert.equal(
      local.add({ endpoint: 'https://127.0.0.1/x', keys: keys() }).endpoint,
      'https://127.0.0.1/x',
    );
  });
});
