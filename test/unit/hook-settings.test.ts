// The hook entries of `warden hook install` in a Claude Code settings file: added beside what is there,
// taken out leaving the rest as it was (indentation, final newline, other hooks of the same event).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { hasHooks, lineDiff, withHooks, withoutHooks } from '../../src/cli/hook-settings.js';

const CONFIG = '/data/hook.json';
const commandFor = (event: string) => `warden hook run ${event} --config ${CONFIG}`;
const ours = (command: string) => command.includes(' hook run ') && command.endsWith(` --config ${CONFIG}`);

describe('hook settings', () => {
  it('adds an entry per event beside the hooks already there, and takes only its own out', () => {
    const before = `{\n    "model": "opus",\n    "hooks": {\n        "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n    }\n}\n`;
    const after = withHooks(before, 'settings.json', commandFor, 60_000);
    const parsed = JSON.parse(after) as {
      model: string;
      hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number }[] }[]>;
    };
    assert.equal(parsed.model, 'opus');
    assert.deepEqual(Object.keys(parsed.hooks).sort(), [
      'Notification',
      'PermissionRequest',
      'Stop',
      'UserPromptSubmit',
    ]);
    assert.equal(parsed.hooks.Stop?.length, 2, "the user's own Stop hook stays");
    assert.deepEqual(parsed.hooks.PermissionRequest?.[0], {
      matcher: '*',
      hooks: [{ type: 'command', command: commandFor('PermissionRequest'), timeout: 70 }],
    });
    assert.match(after, /\n {4}"model"/, 'the file keeps its indentation');
    assert.ok(hasHooks(after, 'settings.json', ours));
    assert.ok(!hasHooks(before, 'settings.json', ours));

    const removed = withoutHooks(after, 'settings.json', ours);
    assert.deepEqual(JSON.parse(removed), JSON.parse(before));
    assert.ok(removed.endsWith('}\n'));
  });

  it('makes a new file, and removing its entries leaves no empty hooks object', () => {
    const made = withHooks(null, 'settings.json', commandFor, 1000);
    assert.deepEqual(JSON.parse(withoutHooks(made, 'settings.json', ours)), {});
    assert.throws(() => withHooks('{ not json', 'settings.json', commandFor, 1000), { code: 'VALIDATION' });
  });

  it('shows the change as the lines that differ, with context', () => {
    assert.equal(lineDiff('a\nb\nc\nd\n', 'a\nb\nX\nd\n'), '  a\n  b\n- c\n+ X\n  d');
  });
});
