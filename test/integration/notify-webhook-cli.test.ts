// `warden serve --webhook URL [--webhook-format F]`: the flags as the command line parses them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseCommand, UsageError } from '../../src/cli/args/index.js';

describe('warden serve --webhook', () => {
  it('is off without the flag', () => {
    assert.deepEqual(parseCommand(['serve']), { name: 'serve' });
  });

  it('takes repeated URLs, each with the format given after it (json by default)', () => {
    const command = parseCommand([
      'serve',
      '--webhook',
      'https://hooks.example/a',
      '--webhook',
      'http://127.0.0.1:9/ntfy',
      '--webhook-format',
      'ntfy',
      '--webhook',
      'https://hooks.slack.example/x',
      '--webhook-format',
      'slack',
    ]);
    assert.deepEqual(command, {
      name: 'serve',
      webhooks: [
        { url: 'https://hooks.example/a', format: 'json' },
        { url: 'http://127.0.0.1:9/ntfy', format: 'ntfy' },
        { url: 'https://hooks.slack.example/x', format: 'slack' },
      ],
    });
  });

  it('refuses a URL that is not http(s), an unknown format, and a format without its URL', () => {
    assert.throws(() => parseCommand(['serve', '--webhook', 'file:///tmp/x']), UsageError);
    assert.throws(() => parseCommand(['serve', '--webhook', 'not a url']), UsageError);
    assert.throws(
      () => parseCommand(['serve', '--webhook', 'https://h.example', '--webhook-format', 'xml']),
      UsageError,
    );
    assert.throws(() => parseCommand(['serve', '--webhook-format', 'json']), UsageError);
    assert.throws(
      () =>
        parseCommand([
          'serve',
          '--webhook',
          'https://h.example',
          '--webhook-format',
          'json',
          '--webhook-format',
          'ntfy',
        ]),
      UsageError,
    );
    assert.throws(() => parseCommand(['login', '--webhook', 'https://h.example']), UsageError);
  });
});
