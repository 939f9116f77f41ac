// The interactive Claude Code TUI in a tmux pane, started the way a person starts it in a terminal, for
// an external world (external-session.ts) whose hooks are in the private HOME: past its first start
// (onboarding done, the folder trusted, the key approved) and in the default permission mode (this CLI's
// TUI starts in auto mode, which runs a plain `touch` unasked; the person chose to be asked).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

import { OFFLINE_API_KEY, poll } from '../../../src/testing/index.js';
import type { ExternalWorld } from './external-session.js';

export const HAS_TMUX = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface TuiSession {
  /** What the pane shows now. */
  screen(): string;
  /** Types `text` and Enter into the pane. */
  send(text: string): void;
  /** Sends keys as tmux names them (`1`, `Enter`). */
  keys(...keys: string[]): void;
  /** Starts another TUI in a new window of the session, which becomes the one `screen` and `send` use. */
  another(name: string): Promise<void>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export async function startTui(t: TestContext, world: ExternalWorld): Promise<TuiSession> {
  const { scratch } = world.session;
  writeFileSync(
    join(scratch.home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      customApiKeyResponses: { approved: [OFFLINE_API_KEY.slice(-20)], rejected: [] },
      projects: { [scratch.cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  const settingsPath = join(scratch.home, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(settingsPath, JSON.stringify({ ...settings, permissions: { defaultMode: 'default' } }));
  const socket = join(scratch.dir, 'tmux.sock');
  const env = { ...world.session.world.env, TERM: 'xterm-256color' };
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  t.after(() => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
  });
  const claude = `cd ${quote(scratch.cwd)} && ${quote(world.session.world.claudePath)}; sleep 600`;
  let pane = 'w:first';
  const screen = () => tmux('capture-pane', '-p', '-J', '-t', pane);
  const prompt = () =>
    poll(() => /❯/.test(screen()) && screen(), { what: () => `the TUI's prompt:\n${screen()}` });
  tmux('new-session', '-d', '-s', 'w', '-n', 'first', '-x', '160', '-y', '50', claude);
  await prompt();
  return {
    screen,
    send(text) {
      tmux('send-keys', '-t', pane, '-l', text);
      tmux('send-keys', '-t', pane, 'Enter');
    },
    keys(...keys) {
      tmux('send-keys', '-t', pane, ...keys);
    },
    async another(name) {
      tmux('new-window', '-t', 'w', '-n', name, claude);
      pane = `w:${name}`;
      await prompt();
    },
  };
}
