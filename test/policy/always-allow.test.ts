// What "always allow" offers for a path reached through a symlink: the path as the agent wrote it and the
// file it leads to now, each exactly — for a file tool, and for a Bash command whose read the CLI stopped
// at the resolved path. Together they allow the call again; the typed path alone allows nothing (a link is
// never followed on its say-so), and once the link leads elsewhere the pinned target no longer matches,
// so the call asks again.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { alwaysAllowRules } from '../../src/policy/always-allow.js';
import { compilePolicy, evaluatePolicy } from '../../src/policy/policy.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-always-')));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'project');
const etc = join(root, 'etc');
const lib = join(root, 'usr-lib');
mkdirSync(cwd);
mkdirSync(etc);
mkdirSync(lib);
writeFileSync(join(lib, 'os-release'), 'PRETTY_NAME="Test OS"\n');
writeFileSync(join(etc, 'secret'), 'nope\n');
writeFileSync(join(etc, 'hostname'), 'box\n');
const link = join(etc, 'os-release');
symlinkSync(join(lib, 'os-release'), link);

/** The CLI's suggestions for `cat <file outside>`: the command to local settings, its directory to read. */
const CAT_SUGGESTIONS = [
  {
    type: 'addRules',
    rules: [{ toolName: 'Bash', ruleContent: `cat ${link}` }],
    behavior: 'allow',
    destination: 'localSettings',
  },
  {
    type: 'addRules',
    rules: [{ toolName: 'Read', ruleContent: `/${lib}/**` }],
    behavior: 'allow',
    destination: 'session',
  },
];

function read(rules: string[], file_path: string): string {
  return evaluatePolicy(compilePolicy('supervised', { allow: rules, deny: [] }, cwd), 'Read', { file_path })
    .behavior;
}

describe('always allow through a symlink', () => {
  it('a Read offers the path as written and where it leads; only both together allow it', () => {
    const rules = alwaysAllowRules({
      toolName: 'Read',
      input: { file_path: link },
      cwd,
      blockedPath: null,
      suggestions: [],
    });
    assert.deepEqual(rules, [`Read(/${link})`, `Read(/${lib}/os-release)`]);
    assert.equal(read(rules, link), 'allow');
    assert.equal(read([`Read(/${link})`], link), 'ask', 'the typed path alone does not follow the link');
    assert.equal(read([`Read(/${lib}/os-release)`], link), 'ask', 'nor does the target alone');

    // The link is pointed elsewhere: the pinned target no longer matches, so it asks again.
    rmSync(link);
    symlinkSync(join(etc, 'secret'), link);
    try {
      assert.equal(read(rules, link), 'ask');
    } finally {
      rmSync(link);
      symlinkSync(join(lib, 'os-release'), link);
    }
  });

  it('a plain file offers one rule, as written', () => {
    const file = join(etc, 'hostname');
    const rules = alwaysAllowRules({
      toolName: 'Read',
      input: { file_path: file },
      cwd,
      blockedPath: null,
      suggestions: [],
    });
    assert.deepEqual(rules, [`Read(/${file})`]);
    assert.equal(read(rules, file), 'allow');
  });

  it('a Bash read the CLI stopped at the resolved path offers the command, the path it names and the target', () => {
    const request = {
      toolName: 'Bash',
      input: { command: `cat ${link}` },
      cwd,
      suggestions: CAT_SUGGESTIONS,
    };
    assert.deepEqual(alwaysAllowRules({ ...request, blockedPath: join(lib, 'os-release') }), [
      `Bash(cat ${link})`,
      `Read(/${link})`,
      `Read(/${lib}/os-release)`,
    ]);
    // Written relative to the cwd, the path is offered resolved, as the CLI spells an absolute path.
    const relative = { ...request, input: { command: 'cat ../etc/os-release' } };
    assert.deepEqual(alwaysAllowRules({ ...relative, blockedPath: join(lib, 'os-release') }).slice(1), [
      `Read(/${link})`,
      `Read(/${lib}/os-release)`,
    ]);
    // A blocked path no word of the command leads to: that path only, as before.
    assert.deepEqual(alwaysAllowRules({ ...request, blockedPath: join(etc, 'hostname') }).slice(1), [
      `Read(/${etc}/hostname)`,
    ]);
    // Without the CLI's Read suggestion the path is not its reason to ask: the command alone.
    assert.deepEqual(
      alwaysAllowRules({ ...request, suggestions: [], blockedPath: join(lib, 'os-release') }),
      [`Bash(cat ${link})`],
    );
    // And the rules allow a Read of the same file later, through the link, while it leads there.
    const rules = alwaysAllowRules({ ...request, blockedPath: join(lib, 'os-release') });
    assert.equal(read(rules, link), 'allow');
  });
});
