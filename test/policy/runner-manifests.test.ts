// While a thread allows a runner, the files that runner runs are protected in that thread: an allow rule
// written for `npm test` must not become an allow for whatever the agent puts into package.json.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { compilePolicy, decidingStep, type PolicyVerdict } from '../../src/policy/index.js';
import type { ThreadMode } from '../../src/store/records.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-runners-')));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'repo');
mkdirSync(join(cwd, 'packages', 'app'), { recursive: true });

function decide(
  allow: string[],
  toolName: string,
  input: Record<string, unknown>,
  mode: ThreadMode = 'auto-edits',
): { step: string; verdict: PolicyVerdict } {
  return decidingStep(compilePolicy(mode, { allow, deny: [] }, cwd), toolName, input);
}

const edit = (file_path: string) => ({ file_path, old_string: 'a', new_string: 'b' });

// [allow rule, a manifest of its runner written by Edit]
const PROTECTED: [string, string][] = [
  ['Bash(npm test)', 'package.json'],
  ['Bash(npm test)', 'packages/app/package.json'],
  ['Bash(yarn run:*)', 'packages/app/package.json'],
  ['Bash(npx jest:*)', 'jest.config.js'],
  ['Bash(yarn test)', 'node_modules/.bin/jest'],
  ['Bash(pnpm test)', 'package.json'],
  ['Bash(make:*)', 'Makefile'],
  ['Bash(make test)', 'build/rules.mk'],
  ['Bash(pytest:*)', 'conftest.py'],
  ['Bash(pytest:*)', 'tests/conftest.py'],
  ['Bash(python -m pytest:*)', 'pyproject.toml'],
  ['Bash(tox)', 'tox.ini'],
  ['Bash(python3 app.py)', 'sitecustomize.py'],
  ['Bash(python3 app.py)', 'lib/python3.11/site-packages/evil.pth'],
  ['Bash(cargo test:*)', 'build.rs'],
  ['Bash(cargo test:*)', 'crates/core/Cargo.toml'],
  ['Bash(go test:*)', 'go.mod'],
  ['Bash(./gradlew test)', 'build.gradle.kts'],
  ['Bash(mvn test)', 'pom.xml'],
  ['Bash(just test)', 'justfile'],
  ['Bash(vitest:*)', 'vite.config.ts'],
  ['Bash', 'package.json'],
];

describe('runner manifests', () => {
  for (const [rule, file] of PROTECTED)
    it(`with ${rule} allowed, an edit of ${file} asks (auto-edits)`, () => {
      const decided = decide([rule], 'Edit', edit(file));
      assert.equal(decided.step, 'protected-write', decided.verdict.reason);
      assert.equal(decided.verdict.behavior, 'ask');
      assert.match(decided.verdict.reason, /allowed runner runs/);
    });

  it('a Bash write to a manifest asks too, even under the runner rule itself', () => {
    for (const command of ['echo x > package.json', 'cp evil.json package.json', 'tee Makefile < x'])
      assert.equal(
        decide(['Bash(npm test)', 'Bash(make:*)', 'Bash'], 'Bash', { command }).verdict.behavior,
        'ask',
        command,
      );
  });

  it('without a runner allowed, the same edits are ordinary (auto-edits allows them)', () => {
    for (const file of ['package.json', 'Makefile', 'conftest.py', 'build.rs'])
      assert.deepEqual([decide(['Bash(git status)'], 'Edit', edit(file)).verdict.behavior], ['allow'], file);
    // A runner's rule protects its own manifests, not another runner's.
    assert.equal(decide(['Bash(make:*)'], 'Edit', edit('package.json')).verdict.behavior, 'allow');
    assert.equal(decide(['Bash(npm test)'], 'Edit', edit('src/index.ts')).verdict.behavior, 'allow');
  });

  it('the runner still runs under its rule', () => {
    const decided = decide(['Bash(npm test)'], 'Bash', { command: 'npm test' }, 'supervised');
    assert.deepEqual([decided.step, decided.verdict.behavior], ['allow-rule', 'allow']);
  });
});
