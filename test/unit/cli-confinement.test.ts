// What every supervised CLI runs under besides the policy (cli-confinement.ts, sandbox-state.ts): the
// sandbox's denyWrite list from the protected-path table, git hardened through the environment, and the
// host's sandbox state.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { SandboxUnavailableError } from '../../src/protocol/errors.js';
import { PROTECTED_PATHS, osProtectedPaths } from '../../src/policy/protected-paths.js';
import {
  GIT_HARDENING,
  prepareHeldPaths,
  protectedTargets,
  sandboxSettingsFor,
  withGitHardening,
} from '../../src/supervisor/runtime/cli-confinement.js';
import {
  SandboxState,
  defaultSandboxMode,
  openSandboxState,
} from '../../src/supervisor/runtime/sandbox-state.js';

function scratch(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-confine-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('osProtectedPaths', () => {
  it('lists every table entry, and of .git only what runs code', () => {
    const paths = osProtectedPaths();
    for (const entry of PROTECTED_PATHS) {
      if (entry.path === '.git' || entry.path === 'git~1') continue;
      assert.ok(paths.includes(entry.path), entry.path);
    }
    assert.deepEqual(
      paths.filter((path) => path.startsWith('.git/')),
      ['.git/config', '.git/config.worktree', '.git/hooks', '.git/info/attributes', '.git/modules'],
    );
    assert.equal(paths.includes('.git'), false, '.git stays writable for commits');
  });
});

describe('protectedTargets', () => {
  it('covers what exists of the table under the cwd, the repository root above it and the home, and the data directory', (t) => {
    const dir = scratch(t);
    const repo = join(dir, 'repo');
    const cwd = join(repo, 'sub');
    const home = join(dir, 'home');
    mkdirSync(join(repo, '.git', 'info'), { recursive: true });
    mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(cwd, '.claude'), { recursive: true });
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(repo, '.git', 'config'), '');
    writeFileSync(join(repo, '.git', 'info', 'attributes'), '');
    writeFileSync(join(home, '.gitconfig'), '');
    const targets = protectedTargets(cwd, home, join(dir, 'data'));
    for (const path of [
      join(repo, '.git', 'config'),
      join(repo, '.git', 'hooks'),
      join(repo, '.git', 'info', 'attributes'),
      join(cwd, '.claude'),
      join(home, '.ssh'),
      join(home, '.gitconfig'),
      join(dir, 'data'),
    ])
      assert.ok(targets.includes(path), path);
    assert.equal(targets.includes(join(repo, '.git')), false, 'the objects stay writable: commits work');
    // Absent under the cwd and the repository: held too (the CLI removes the placeholders afterwards).
    for (const absent of [
      join(cwd, '.git', 'config'),
      join(repo, '.envrc'),
      join(repo, '.git', 'config.worktree'),
    ])
      assert.ok(targets.includes(absent), absent);
    // Absent in the home (a placeholder would stay there) or read at every command: left out.
    for (const absent of [
      join(home, '.bashrc'),
      join(home, '.profile'),
      join(cwd, '.git', 'info', 'attributes'),
    ])
      assert.equal(targets.includes(absent), false, `${absent} is left out`);
  });

  it('holds a .git file whole, and an existing ~/.bashrc', (t) => {
    const dir = scratch(t);
    writeFileSync(join(dir, '.git'), 'gitdir: /elsewhere\n');
    writeFileSync(join(dir, '.bashrc'), '');
    const targets = protectedTargets(dir, dir, join(dir, 'data'));
    assert.ok(targets.includes(join(dir, '.git')));
    assert.equal(targets.includes(join(dir, '.git', 'config')), false);
    assert.ok(targets.includes(join(dir, '.bashrc')));
  });
});

describe('sandboxSettingsFor', () => {
  it('turns the sandbox on without auto-allowing Bash or a way out, and leaves writes elsewhere open', (t) => {
    const dir = scratch(t);
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), '');
    const settings = sandboxSettingsFor({ cwd: dir, home: dir, dataDir: join(dir, 'data'), required: false });
    assert.equal(settings.enabled, true);
    assert.equal(settings.failIfUnavailable, false);
    assert.equal(settings.autoAllowBashIfSandboxed, false);
    assert.equal(settings.allowUnsandboxedCommands, false);
    assert.deepEqual(settings.filesystem?.allowWrite, ['/']);
    assert.deepEqual(settings.network, { allowedDomains: ['*'] });
    assert.ok((settings.filesystem?.denyWrite as string[]).includes(join(dir, '.git', 'config')));
    assert.equal(
      sandboxSettingsFor({ cwd: dir, home: dir, dataDir: dir, required: true }).failIfUnavailable,
      true,
    );
  });

  it("keeps the user's own limits when a settings file turns the sandbox on", (t) => {
    const dir = scratch(t);
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{"sandbox":{"enabled":true}}');
    const settings = sandboxSettingsFor({ cwd: dir, home: dir, dataDir: dir, required: false });
    assert.equal(settings.filesystem?.allowWrite, undefined);
    assert.equal(settings.network, undefined);
  });
});

describe('withGitHardening', () => {
  it('appends after the entries the environment has', () => {
    const env = withGitHardening({
      PATH: '/bin',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'A',
    });
    assert.equal(env.GIT_CONFIG_COUNT, String(1 + GIT_HARDENING.length));
    assert.equal(env.GIT_CONFIG_KEY_0, 'user.name');
    assert.deepEqual(
      [1, 2, 3].map((i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]),
      [
        ['safe.bareRepository', 'explicit'],
        ['core.fsmonitor', 'false'],
        ['core.hooksPath', '/dev/null'],
      ],
    );
    assert.equal(withGitHardening({}).GIT_CONFIG_COUNT, '3');
    assert.equal(withGitHardening({ GIT_CONFIG_COUNT: 'x' }).GIT_CONFIG_KEY_0, 'safe.bareRepository');
  });
});

describe('SandboxState', () => {
  const available = {
    available: true,
    reason: null,
    mechanism: 'bubblewrap' as const,
    bwrap: '/usr/bin/bwrap',
  };
  const missing = { available: false, reason: 'bwrap not found', mechanism: null };

  it('is enforced where it can run, and not after a CLI says it runs without it', () => {
    const state = openSandboxState('auto', () => available);
    assert.deepEqual(state.status, { mode: 'auto', enforced: true, reason: null, mechanism: 'bubblewrap' });
    const warnings: unknown[] = [];
    state.observeInit({ sandbox_enabled: true }, (w) => warnings.push(w));
    state.observeInit({}, (w) => warnings.push(w));
    assert.equal(state.enforced, true, 'an older CLI says nothing');
    state.observeInit({ sandbox_enabled: false }, (w) => warnings.push(w));
    state.observeInit({ sandbox_enabled: false }, (w) => warnings.push(w));
    assert.equal(state.enforced, false);
    assert.equal(warnings.length, 1);
    assert.ok(warnings[0] instanceof SandboxUnavailableError);
  });

  it('required refuses where it cannot run; off does not probe', () => {
    assert.throws(() => openSandboxState('required', () => missing), {
      code: 'SANDBOX_UNAVAILABLE',
      reason: 'bwrap not found',
    });
    assert.equal(openSandboxState('auto', () => missing).status.reason, 'bwrap not found');
    const off = openSandboxState('off', () => assert.fail('no probe'));
    assert.deepEqual(off.status, {
      mode: 'off',
      enforced: false,
      reason: 'switched off (sandbox: off)',
      mechanism: null,
    });
    assert.equal(new SandboxState('off', undefined).requested, false);
  });
});

describe('prepareHeldPaths', () => {
  it('makes .claude and the parts of .git an empty one of which is none, and leaves what exists', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-held-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), 'kept');
    const bare = join(dir, 'elsewhere');
    mkdirSync(bare);
    prepareHeldPaths([dir, bare]);
    assert.equal(readFileSync(join(dir, '.git', 'hooks', 'pre-commit'), 'utf8'), 'kept');
    assert.equal(statSync(join(dir, '.claude')).isDirectory(), true);
    assert.equal(statSync(join(dir, '.git', 'modules')).isDirectory(), true);
    assert.equal(readFileSync(join(dir, '.git', 'info', 'attributes'), 'utf8'), '');
    assert.equal(readFileSync(join(dir, '.git', 'config.worktree'), 'utf8'), '');
    assert.equal(statSync(join(bare, '.claude')).isDirectory(), true);
    assert.equal(existsSync(join(bare, '.git')), false, 'no repository is made where there is none');
  });
});

describe('defaultSandboxMode', () => {
  it('is WARDEN_SANDBOX when set, else auto; anything else is a TypeError', () => {
    assert.equal(defaultSandboxMode({}), 'auto');
    assert.equal(defaultSandboxMode({ WARDEN_SANDBOX: '' }), 'auto');
    assert.equal(defaultSandboxMode({ WARDEN_SANDBOX: 'off' }), 'off');
    assert.equal(defaultSandboxMode({ WARDEN_SANDBOX: 'required' }), 'required');
    assert.throws(() => defaultSandboxMode({ WARDEN_SANDBOX: 'yes' }), {
      name: 'TypeError',
      message: 'WARDEN_SANDBOX must be one of auto, required, off, not "yes"',
    });
  });
});
