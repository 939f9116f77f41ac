// A git repository with one commit, for the sandbox tests against the real CLI.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function initRepository(cwd: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@example.com', '-c', 'user.name=A', ...args], { cwd });
  git('init', '-q');
  writeFileSync(join(cwd, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'first');
}
