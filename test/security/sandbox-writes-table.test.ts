// Writes to protected paths through programs the policy does not know, each run by the real CLI under
// full-access with every approval allowed (a careless person): the operating system refuses every one.
// Twice: under Warden's bubblewrap prefix (the default on Linux), which holds the protected paths that
// exist, with each row's protected path there; and under the CLI's own sandbox (a settings file of the
// person turns it on), which holds absent ones too, with them absent. The row is the command; `target`
// is what must be unchanged afterwards (relative to the cwd, `~/` for the home).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Supervisor } from '../../src/supervisor/index.js';
import { probeSandbox } from '../../src/supervisor/runtime/sandbox-probe.js';
import { scenario, startTestWorld } from '../../src/testing/index.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { answerEveryApproval, initRepository } from './sandbox-helpers.js';

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

/** The protected path a row writes into: its first segment (`.claude` of `.claude/settings.json`). */
function heldPathOf(target: string): { path: string; dir: boolean } | undefined {
  const [root, rest] = target.startsWith('~/') ? ['~/', target.slice(2)] : ['', target];
  if (rest.startsWith('.git/')) return undefined;
  const [first = '', ...more] = rest.split('/');
  return { path: `${root}${first}`, dir: more.length > 0 };
}

/** What a path holds: a file's text, a folder's names (all levels), or null. */
function snapshot(path: string): string | null {
  if (!existsSync(path)) return null;
  if (!statSync(path).isDirectory()) return readFileSync(path, 'utf8');
  // The CLI's own sandbox leaves its `.cc-writes` folder in a `.claude` it held.
  const names = readdirSync(path, { recursive: true }).map(String);
  return JSON.stringify(names.filter((name) => !name.startsWith('.cc-writes')).sort());
}

for (const mechanism of ['bubblewrap', 'cli'] as const) {
  describe(
    `the sandbox (${mechanism === 'bubblewrap' ? "Warden's bubblewrap prefix" : "the CLI's own"}) refuses protected writes through programs the policy does not know`,
    { timeout: 300_000 },
    () => {
      it(`refuses all ${WRITES.length}, each allowed by the policy or a person`, async (t) => {
        if (!probeSandbox(process.env).available) return t.skip('the sandbox cannot run on this machine');
        let track = scenario().on('writes');
        for (const { command } of WRITES)
          track = track.callTool('Bash', { command, description: 'Write it' });
        const world = await startTestWorld(t, {
          prefix: 'warden-sbxw-',
          script: track.thenAnswer('done').build(),
        });
        const { cwd, home } = world.scratch;
        initRepository(cwd);
        const resolveTarget = (target: string) =>
          target.startsWith('~/') ? join(home, target.slice(2)) : join(cwd, target);
        // The home's files as a person's home has them.
        writeFileSync(join(home, '.profile'), '# profile\n');
        mkdirSync(join(home, '.ssh'), { mode: 0o700 });
        if (mechanism === 'cli') {
          mkdirSync(join(home, '.claude'), { recursive: true });
          writeFileSync(
            join(home, '.claude', 'settings.json'),
            JSON.stringify({ sandbox: { enabled: true } }),
          );
        } else
          for (const { target } of WRITES) {
            const held = heldPathOf(target);
            // `.claude` the supervisor makes itself before the CLI starts (cli-confinement.ts).
            if (held === undefined || held.path === '.claude' || existsSync(resolveTarget(held.path)))
              continue;
            if (held.dir) mkdirSync(resolveTarget(held.path));
            else writeFileSync(resolveTarget(held.path), 'as the person wrote it\n');
          }
        // The CLI itself (outside any sandbox) keeps its state in ~/.claude: there only the target is watched.
        const watched = [
          ...new Set(
            WRITES.flatMap(({ target }) => {
              const held = heldPathOf(target)?.path;
              return held === undefined || held === '~/.claude' ? [target] : [target, held];
            }),
          ),
        ];
        const before = new Map(watched.map((target) => [target, snapshot(resolveTarget(target))] as const));
        const sup = await Supervisor.open({
          dataDir: world.dataDir,
          claudePath: world.claudePath,
          env: world.env,
          sandbox: 'required',
          onWarning: () => undefined,
        });
        world.defer(() => sup.close({ stopAgents: true }));
        assert.equal(sup.sandbox.mechanism, 'bubblewrap', 'the host holds them with its prefix');
        const thread = await sup.createThread({ cwd, mode: 'full-access' });
        // A person who allows everything the policy asks about.
        const person = answerEveryApproval(sup, world, { behavior: 'allow' });
        const run = await sup.send(thread.id, '[[writes]] write them all');
        const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id, 240_000);
        assert.equal(person.refused(), undefined, 'every approval was answered');
        assert.equal(ended.data.status, 'completed');
        const changed = watched.filter((target) => {
          const now = snapshot(resolveTarget(target));
          const was = before.get(target) ?? null;
          // An absent path may be left as the empty placeholder the CLI's sandbox mounted over it (or
          // the folder of its own `.cc-writes`), and `.claude` as the empty folder the supervisor made.
          const placeholder = was === null && (now === '' || now === '[]');
          return now !== was && !((mechanism === 'cli' || target === '.claude') && placeholder);
        });
        assert.deepEqual(changed, [], 'no protected path changed');
        assert.equal(existsSync(join(cwd, 'MARKER')), false);
      });
    },
  );
}
