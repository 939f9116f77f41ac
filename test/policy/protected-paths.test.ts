// Every entry of the protected-path table, as a test of its own: a write there is asked for whatever the
// mode or an allow rule says (at the top of the cwd, deep below it, in other letter case, through a
// symlink, and as a shell redirection target), while a deny rule still denies. Then the CLI's own
// "sensitive" verdict, which only ever makes a decision stricter, and the neighbours that stay allowed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { compilePolicy, evaluatePolicy } from '../../src/policy/policy.js';
import { PROTECTED_PATHS, UNPROTECTED } from '../../src/policy/protected-paths.js';
import type { ThreadMode } from '../../src/store/records.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-protected-')));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'repo');
mkdirSync(join(cwd, 'src'), { recursive: true });

function verdict(
  mode: ThreadMode,
  tool: string,
  input: Record<string, unknown>,
  rules: { allow?: string[]; deny?: string[] } = {},
  cli: { decisionReason?: string | null; blockedPath?: string | null } = {},
): string {
  const policy = compilePolicy(mode, { allow: rules.allow ?? [], deny: rules.deny ?? [] }, cwd);
  return evaluatePolicy(policy, tool, input, cli).behavior;
}

/** A file the entry covers: the entry itself for files (`*` filled in), something inside directories. */
function sample(path: string, kind: 'dir' | 'file'): string {
  const named = path.replace(/\*/gu, 'x');
  return kind === 'dir' ? `${named}/config` : named;
}

describe('protected paths: one case per table entry', () => {
  for (const entry of PROTECTED_PATHS) {
    it(`${entry.path} (${entry.kind}): ${entry.reason.slice(0, 60)}`, () => {
      const target = sample(entry.path, entry.kind);
      const places = [
        join(cwd, target),
        target,
        `sub/deeper/${target}`,
        target.toUpperCase(),
        `${target.replace(/^([^/]+)/u, '$1.')}`, // a trailing dot, as Windows drops it
      ];
      for (const file_path of places) {
        assert.equal(
          verdict('auto-edits', 'Write', { file_path, content: 'x' }),
          'ask',
          `auto-edits ${file_path}`,
        );
        assert.equal(verdict('auto-edits', 'Edit', { file_path, old_string: 'a', new_string: 'b' }), 'ask');
        assert.equal(verdict('auto-edits', 'MultiEdit', { file_path, edits: [] }), 'ask');
        assert.equal(
          verdict('full-access', 'Write', { file_path, content: 'x' }),
          'ask',
          `full-access ${file_path}`,
        );
        assert.equal(
          verdict('supervised', 'Write', { file_path, content: 'x' }, { allow: ['Write', 'Edit(**)'] }),
          'ask',
          `allow rules ${file_path}`,
        );
        assert.equal(
          verdict('full-access', 'Write', { file_path, content: 'x' }, { deny: ['Write'] }),
          'deny',
          'a deny rule still denies',
        );
      }
      assert.equal(verdict('auto-edits', 'NotebookEdit', { notebook_path: target, new_source: '' }), 'ask');
      assert.equal(verdict('full-access', 'Bash', { command: `echo x > ${target}` }), 'ask', 'redirection');
      assert.equal(
        verdict('full-access', 'Bash', { command: `echo x >> ./${target}` }),
        'ask',
        'redirection',
      );
      assert.equal(verdict('full-access', 'Bash', { command: `echo x | tee -a ${target}` }), 'ask', 'tee');
      // Programs that write the files their arguments name, also under an allow rule for the program.
      for (const command of [
        `cp a ${target}`,
        `mv -f a ./${target}`,
        `ln -sf /tmp/x ${target}`,
        `install -m 755 a ${target}`,
        `rsync a ${target}`,
        `touch ${target}`,
        `dd if=a of=${target}`,
        `sed -i s/a/b/ ${target}`,
        `perl -pi -e s/a/b/ ${target}`,
        `sudo cp a ${target}`,
      ]) {
        assert.equal(verdict('full-access', 'Bash', { command }), 'ask', command);
        const program = command.split(' ')[0] ?? '';
        assert.equal(
          verdict('supervised', 'Bash', { command }, { allow: [`Bash(${program}:*)`] }),
          'ask',
          command,
        );
      }
      assert.equal(
        verdict(
          'full-access',
          'Bash',
          { command: 'sed -i s/a/b/ f' },
          {},
          { blockedPath: join(cwd, target) },
        ),
        'ask',
        "the CLI's blocked path",
      );
    });
  }
});

describe('protected paths: real paths, the CLI verdict and the neighbours', () => {
  it('commands that change VCS or package-manager configuration are protected writes', () => {
    for (const command of [
      'git config core.fsmonitor "touch PWNED"',
      'git -C . config --add core.hooksPath x',
      'git config --global alias.st "!sh x"',
      'git config --file sub/.git/config core.pager x',
      'npm config set script-shell ./x',
      'npm set ignore-scripts false',
      'yarn config set yarnPath ./x.js',
    ]) {
      assert.equal(verdict('full-access', 'Bash', { command }), 'ask', command);
      assert.equal(
        verdict('supervised', 'Bash', { command }, { allow: ['Bash(git:*)', 'Bash(npm:*)', 'Bash(yarn:*)'] }),
        'ask',
        command,
      );
    }
    for (const command of [
      'git config --get user.name',
      'git config user.name',
      'git config -l',
      'npm config get x',
      'cp a b',
      'git status',
    ])
      assert.equal(verdict('full-access', 'Bash', { command }), 'allow', command);
  });

  it('a symlink into a protected directory is followed, also for a file that does not exist yet', () => {
    mkdirSync(join(cwd, '.git/hooks'), { recursive: true });
    symlinkSync(join(cwd, '.git'), join(cwd, 'innocent'));
    symlinkSync(join(cwd, '.git/hooks'), join(cwd, 'src/tools'));
    assert.equal(verdict('auto-edits', 'Write', { file_path: 'innocent/config', content: 'x' }), 'ask');
    assert.equal(
      verdict('auto-edits', 'Write', { file_path: 'src/tools/new/pre-commit', content: 'x' }),
      'ask',
    );
    assert.equal(verdict('full-access', 'Bash', { command: 'echo x > innocent/config' }), 'ask');
  });

  it('a symlink whose target does not exist yet is judged by its target', () => {
    mkdirSync(join(cwd, '.git/hooks'), { recursive: true });
    symlinkSync(join(cwd, '.git/hooks/post-checkout'), join(cwd, 'src/dangling-hook'));
    symlinkSync('../.claude/settings.local.json', join(cwd, 'src/dangling-settings'));
    symlinkSync('dangling-hook', join(cwd, 'src/chain'));
    symlinkSync(join(root, 'elsewhere/new.txt'), join(cwd, 'src/dangling-out'));
    assert.equal(existsSync(join(cwd, 'src/dangling-hook')), false, 'the target does not exist');
    for (const file_path of ['src/dangling-hook', 'src/dangling-settings', 'src/chain']) {
      assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'ask', file_path);
      assert.equal(verdict('full-access', 'Bash', { command: `echo x > ${file_path}` }), 'ask', file_path);
      assert.equal(verdict('full-access', 'Bash', { command: `cp a ${file_path}` }), 'ask', file_path);
    }
    assert.equal(
      verdict('auto-edits', 'Write', { file_path: 'src/dangling-out', content: 'x' }),
      'ask',
      'a dangling link out of the cwd is not an edit inside it',
    );
    // A loop of links resolves to nothing and does not hang.
    symlinkSync('loop-b', join(cwd, 'src/loop-a'));
    symlinkSync('loop-a', join(cwd, 'src/loop-b'));
    assert.equal(verdict('auto-edits', 'Write', { file_path: 'src/loop-a', content: 'x' }), 'allow');
  });

  it('configuration that runs code, from more tools, is protected', () => {
    for (const file_path of [
      '.devcontainer.json',
      'lefthook.yml',
      '.lefthook.yml',
      'lefthook.yaml',
      'lefthook-local.yml',
      '.lefthook-local.yaml',
      'lefthook.toml',
      '.lefthook/pre-commit/check.sh',
      '.overcommit.yml',
      '.githooks/pre-commit',
      '.git-hooks/pre-push',
      'warden.code-workspace',
      '.zed/settings.json',
      '.zed/tasks.json',
      '.vimrc',
      '.hgrc',
      '.sl/config',
      '.bash_aliases',
      '.cargo/config.toml',
      '.cargo/config',
      'sub/crate/.cargo/config.toml',
      'rust-toolchain.toml',
      'rust-toolchain',
      'mise.toml',
      '.mise.toml',
      'mise.local.toml',
      '.mise.production.toml',
      '.config/mise/config.toml',
    ]) {
      assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'ask', file_path);
      assert.equal(verdict('full-access', 'Bash', { command: `echo x > ${file_path}` }), 'ask', file_path);
    }
    for (const file_path of ['cargo/config.toml', 'docs/lefthook.md.bak/x', 'rust-toolchain.md', 'mise.lock'])
      assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'allow', file_path);
  });

  it('Windows 8.3 short names of protected names are protected', () => {
    for (const file_path of [
      'GIT~1/config',
      'GITHOO~1/pre-commit',
      'CLAUDE~1/settings.json',
      'CLAUDE~1.JSO',
      'MCP~1.JSO',
      'VSCODE~1/tasks.json',
      'BASHRC~1',
      'LEFTHO~1.YML',
      'WARDEN~1.COD',
      'sub/CONFIG~1/git/config',
      'GI3F2A~1/config',
    ]) {
      assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'ask', file_path);
      assert.equal(verdict('full-access', 'Bash', { command: `echo x > '${file_path}'` }), 'ask', file_path);
    }
    for (const file_path of ['PROGRA~1/x.ts', 'notes~1.txt', 'src/BACKUP~1.TS', 'CLAUDE~1.MD'])
      assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'allow', file_path);
  });

  it('an NTFS stream of a protected name is protected', () => {
    for (const file_path of [
      '.git::$INDEX_ALLOCATION/config',
      '.claude::$INDEX_ALLOCATION/settings.json',
      '.mcp.json::$DATA',
      '.bashrc:stream',
      '.vscode/tasks.json:x:$DATA',
    ]) {
      assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'ask', file_path);
      assert.equal(verdict('full-access', 'Bash', { command: `echo x > '${file_path}'` }), 'ask', file_path);
    }
    assert.equal(verdict('auto-edits', 'Write', { file_path: 'notes.txt:stream', content: 'x' }), 'allow');
  });

  it('look-alike names are still protected: zero-width characters, trailing spaces', () => {
    for (const file_path of [
      '.g\u200cit/config',
      '.git /config',
      '.GIT./hooks/pre-commit',
      '.claude\u200d/settings.json',
    ])
      assert.equal(
        verdict('auto-edits', 'Write', { file_path, content: 'x' }),
        'ask',
        JSON.stringify(file_path),
      );
  });

  it("the CLI's sensitive-file verdict makes a write asked, whatever the mode or allow rule", () => {
    // The wording of Claude Code 2.1.328 (see docs/supervisor.md).
    const reasons = [
      `Claude requested permissions to edit ${cwd}/.ripgreprc which is a sensitive file.`,
      `Claude requested permissions to write to ${cwd}/x/.claude/skills/s/SKILL.md, but you haven't granted it yet.`,
      'A future wording the policy does not know yet',
    ];
    for (const decisionReason of reasons) {
      const cli = { decisionReason };
      assert.equal(verdict('auto-edits', 'Write', { file_path: 'notes.txt', content: 'x' }, {}, cli), 'ask');
      assert.equal(verdict('full-access', 'Edit', { file_path: 'notes.txt' }, {}, cli), 'ask');
      assert.equal(
        verdict('supervised', 'Write', { file_path: 'notes.txt' }, { allow: ['Write'] }, cli),
        'ask',
      );
      assert.equal(
        verdict('full-access', 'Write', { file_path: 'notes.txt' }, { deny: ['Write'] }, cli),
        'deny',
      );
    }
    const bashSensitive = {
      decisionReason: `Claude requested permissions to edit ${cwd}/.x which is a sensitive file.`,
    };
    assert.equal(verdict('full-access', 'Bash', { command: 'cp a .x' }, {}, bashSensitive), 'ask');
    // What the CLI says of ordinary requests does not stop them.
    const outside = { decisionReason: 'Path is outside allowed working directories' };
    assert.equal(verdict('full-access', 'Write', { file_path: '/tmp/x.txt' }, {}, outside), 'allow');
    assert.equal(
      verdict(
        'full-access',
        'Bash',
        { command: 'npm test' },
        {},
        { decisionReason: 'This command requires approval' },
      ),
      'allow',
    );
  });

  it('neighbours of protected names stay allowed in auto-edits', () => {
    for (const file_path of [
      'src/a.ts',
      '.gitignore',
      'docs/x.git/notes.md',
      'my.bashrc.bak',
      'package.json',
      'Makefile',
      'CLAUDE.md',
      '.gitattributes',
      '.env',
      'claude/settings.json',
      'src/vscode/settings.json',
    ])
      assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'allow', file_path);
  });

  it('each file the table deliberately leaves out stays allowed in auto-edits, with its reason', () => {
    for (const entry of UNPROTECTED) {
      assert.ok(entry.reason.length > 0, entry.what);
      for (const file_path of [entry.sample, join(cwd, entry.sample), `sub/${entry.sample}`])
        assert.equal(verdict('auto-edits', 'Write', { file_path, content: 'x' }), 'allow', file_path);
    }
  });
});
