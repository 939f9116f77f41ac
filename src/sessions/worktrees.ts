// The git worktrees of a directory: a session started in any worktree of a repository belongs to the
// same project, so listSessions({ dir }) includes them unless includeWorktrees is false. Not a git
// repository, no git installed, or git too slow: just the directory itself.
import { execFile } from 'node:child_process';

const GIT_TIMEOUT_MS = 5000;

export function worktreesOf(dir: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', dir, 'worktree', 'list', '--porcelain'],
      { timeout: GIT_TIMEOUT_MS, windowsHide: true },
      (error, stdout) => {
        if (error !== null) return resolve([]);
        resolve(
          stdout
            .split('\n')
            .filter((line) => line.startsWith('worktree '))
            .map((line) => line.slice('worktree '.length)),
        );
      },
    );
  });
}
