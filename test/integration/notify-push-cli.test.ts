// `warden serve --web-push [--push-contact URL]`: the flags as the command line parses them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseCommand, UsageError } from '../../src/cli/args/index.js';

describe('warden serve --web-push', () => {
  it('is off without the flag', () => {
    assert.deepEqual(parseCommand(['serve']), { name: 'serve' });
  });

  it('turns Web Push on, with the contact push services see', () => {
    assert.deepEqual(parseCommand(['serve', '--web-push']), { name: 'serve', webPush: {} });
    assert.deepEqual(parseCommand(['serve', '--web-push', '--push-contact', 'mailto:me@example.com']), {
      name: 'serve',
      webPush: { subject: 'mailto:me@example.com' },
    });
  });

  it('refuses a contact that is not mailto: or https:, one without --web-push, and the flag elsewhere', () => {
    assert.throws(
      () => parseCommand(['serve', '--web-push', '--push-contact', 'http://me.example']),
      UsageError,
    );
    assert.throws(() => parseCommand(['serve', '--push-contact', 'mailto:me@example.com']), UsageError);
    assert.throws(() => parseCommand(['login', '--web-push']), UsageError);
  });
});
