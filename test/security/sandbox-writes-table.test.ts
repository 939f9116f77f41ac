// Writes to protected paths through programs the policy does not know, each run by the real CLI under
// full-access with every approval allowed (a careless person): the operating system (the CLI's sandbox,
// as the supervisor sets it up) refuses every one. The row is the command; `target` is what must be
// unchanged afterwards (relative to the cwd, `~/` for the home).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { probeSandbox } from '../../src/supervisor/runtime/sandbox-probe.js';
import { scenario, startTestWorld } from '../../src/testing/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { initRepository } from './sandbox-helpers.js';

const PY = 'python3 -c';
const WRITES: readonly { readonly command: string; readonly target: string }[] = [
  { command: `${PY} "open('.git/config','a').write('x')"`, target: '.git/config' },
  { command: `node -e "require('fs').appendFileSync('.git/config','x')"`, target: '.git/config' },
  { command: `perl -e 'open(F,">>.git/config"); print F "x"'`, target: '.git/config' },
  { command: `perl -i -pe 's/core/c0re/' .git/config`, target: '.git/config' },
  { command: `sed -i 's/core/c0re/' .git/config`, target: '.git/config' },
  { command: `awk 'BEGIN { print "x" > ".git/config" }'`, target: '.git/config' },
  { command: 'dd if=a.txt of=.git/config conv=notrunc', target: '.git/config' },
  { command: 'tee -a .git/config < a.txt', target: '.git/config' },
  { command: 'truncate -s 0 .git/config', target: '.git/config' },
  { command: 'sort -o .git/config a.txt', target: '.git/config' },
  { command: `git config core.fsmonitor 'touch MARKER'`, target: '.git/config' },
  { command: `git diff HEAD --output=.git/config`, target: '.git/config' },
  { command: 'cp a.txt .git/hooks/pre-commit', target: '.git/hooks/pre-commit' },
  { command: 'install -m 755 a.txt .git/hooks/post-checkout', target: '.git/hooks/post-checkout' },
  { command: 'ln -s /bin/true .git/hooks/pre-push', target: '.git/hooks/pre-push' },
  { command: 'split -b 1 a.txt .git/hooks/x', target: '.git/hooks/xaa' },
  { command: 'git format-patch -1 -o .git/hooks HEAD', target: '.git/hooks/0001-first.patch' },
  {
    command: `${PY} "import os; os.makedirs('.claude', exist_ok=True); open('.claude/settings.json','w').write('{}')"`,
    target: '.claude/settings.json',
  },
  {
    command: `node -e "require('fs').mkdirSync('.claude/commands',{recursive:true})"`,
    target: '.claude/commands',
  },
  { command: `echo '{}' > m.json && mv m.json .mcp.json`, target: '.mcp.json' },
  { command: 'git archive -o .mcp.json HEAD', target: '.mcp.json' },
  {
    command: `printf 'diff --git a/.envrc b/.envrc\\nnew file mode 100644\\n--- /dev/null\\n+++ b/.envrc\\n@@ -0,0 +1 @@\\n+touch MARKER\\n' > p.diff && git apply p.diff`,
    target: '.envrc',
  },
  {
    command: `printf -- '--- /dev/null\\n+++ .npmrc\\n@@ -0,0 +1 @@\\n+script-shell=/tmp/x\\n' > q.diff && patch -p0 < q.diff`,
    target: '.npmrc',
  },
  {
    command:
      'mkdir -p t/.husky && echo x > t/.husky/pre-commit && tar -C t -cf t.tar .husky && tar -xf t.tar',
    target: '.husky/pre-commit',
  },
  {
    command:
      'mkdir -p z/.vscode && echo {} > z/.vscode/tasks.json && cd z && zip -qr ../z.zip .vscode && cd .. && unzip -oq z.zip',
    target: '.vscode/tasks.json',
  },
  { command: 'gzip -c a.txt > .gitmodules', target: '.gitmodules' },
  { command: `find . -maxdepth 0 -fprintf .pre-commit-config.yaml 'x'`, target: '.pre-commit-config.yaml' },
  { command: `echo .devcontainer | xargs mkdir -p`, target: '.devcontainer' },
  { command: `sqlite3 .idea 'create table t(x)'`, target: '.idea' },
  { command: `sh -c 'echo x >> "$HOME/.profile"'`, target: '~/.profile' },
  { command: `git config --global core.pager 'touch MARKER'`, target: '~/.gitconfig' },
  {
    command: `mkdir -p s/.ssh && echo key > s/.ssh/authorized_keys && tar -C s -cf s.tar .ssh && tar -C "$HOME" -xf s.tar`,
    target: '~/.ssh/authorized_keys',
  },
  {
    command: `${PY} "import os; p=os.path.expanduser('~/.claude'); os.makedirs(p, exist_ok=True); open(p+'/settings.json','w').write('{}')"`,
    target: '~/.claude/settings.json',
  },
];

describe(
  'the sandbox refuses protected writes through programs the policy does not know',
  { timeout: 300_000 },
  () => {
    it(`refuses all ${WRITES.length}, each allowed by the policy or a person`, async (t) => {
      if (!probeSandbox(process.env).available) return t.skip('the sandbox cannot run on this machine');
      let track = scenario().on('writes');
      for (const { command } of WRITES) track = track.callTool('Bash', { command, description: 'Write it' });
      const world = await startTestWorld(t, {
        prefix: 'warden-sbxw-',
        script: track.thenAnswer('done').build(),
      });
      const { cwd, home } = world.scratch;
      initRepository(cwd);
      // The home's files as a person's home has them: an absent one there is not held (docs/security.md).
      writeFileSync(join(home, '.profile'), '# profile\n');
      mkdirSync(join(home, '.ssh'), { mode: 0o700 });
      const resolveTarget = (target: string) =>
        target.startsWith('~/') ? join(home, target.slice(2)) : join(cwd, target);
      const before = new Map(
        WRITES.map(({ target }) => {
          const path = resolveTarget(target);
          return [
            target,
            existsSync(path) && !statSync(path).isDirectory() ? readFileSync(path, 'utf8') : null,
          ] as const;
        }),
      );
      const sup = await Supervisor.open({
        dataDir: world.dataDir,
        claudePath: world.claudePath,
        env: world.env,
        sandbox: 'required',
        onWarning: () => undefined,
      });
      world.defer(() => sup.close({ stopAgents: true }));
      const thread = await sup.createThread({ cwd, mode: 'full-access' });
      const controller = new AbortController();
      // A person who allows everything the policy asks about.
      const allowing = (async () => {
        for await (const event of sup.events({ signal: controller.signal }))
          if (event.type === 'approval.requested')
            await sup.decide(event.data.approvalId, { behavior: 'allow' });
      })().catch(() => undefined);
      const run = await sup.send(thread.id, '[[writes]] write them all');
      const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id, 240_000);
      controller.abort();
      await allowing;
      assert.equal(ended.data.status, 'completed');
      const written = WRITES.filter(({ target }) => {
        const path = resolveTarget(target);
        const now = existsSync(path) && !statSync(path).isDirectory() ? readFileSync(path, 'utf8') : null;
        // An absent path may be left as the empty placeholder the sandbox mounted over it.
        return now !== before.get(target) && !(before.get(target) === null && now === '');
      });
      assert.deepEqual(written, [], 'no protected path changed');
      assert.equal(existsSync(join(cwd, 'MARKER')), false);
    });
  },
);
