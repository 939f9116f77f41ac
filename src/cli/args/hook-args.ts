// `warden hook install|uninstall|status` (and `warden hook run EVENT`, which main.ts runs before this
// parser is even loaded: it runs on every hook event of a Claude Code session).
import { parseDuration } from '../duration.js';
import type { Command } from './command.js';
import { DATA_DIR, oneOf } from './flags.js';
import { booleanFlag, defineCommand, stringFlag } from './parser.js';
import { UsageError } from './usage-error.js';

/** As the server allows (routes-hook-events.ts); not imported: the parser loads no server code. */
const MAX_HOOK_WAIT_MS = 24 * 60 * 60 * 1000;

const ACTIONS = ['install', 'uninstall', 'status', 'run'] as const;
export const HOOK_SCOPES = ['user', 'project'] as const;
export type HookScope = (typeof HOOK_SCOPES)[number];

function waitFlag(name: string, help: string, defaultHelp: string) {
  return stringFlag({
    placeholder: 'D',
    help,
    defaultHelp,
    check: (text) => {
      const ms = parseDuration(text);
      if (ms === undefined || ms < 10_000 || ms > MAX_HOOK_WAIT_MS)
        throw new UsageError(
          `--${name} must be a duration from 10s to 24h such as 90s, 5m or 2h, got '${text}'`,
        );
      return ms;
    },
  });
}

export const HOOK = defineCommand({
  name: 'hook',
  synopsis: 'hook install | uninstall | status',
  summary:
    'Bring Claude Code sessions Warden did not start (terminal, IDE, claude -p) into the inbox: install ' +
    "writes Warden's hooks into a Claude Code settings file (shown as a diff, then asked) and a " +
    'report-only token into a file of its own; uninstall takes them out again, byte for byte',
  positionals: [{ name: 'install|uninstall|status|run' }, { name: 'EVENT' }],
  forms: [
    {
      synopsis: 'hook run EVENT',
      help: 'what the settings run for each event (reads the hook JSON on stdin); not for people',
    },
  ],
  flags: {
    scope: stringFlag<HookScope>({
      placeholder: 'S',
      help: "user (~/.claude/settings.json) or project (this folder's .claude/settings.local.json)",
      defaultHelp: 'user',
      check: oneOf('scope', HOOK_SCOPES),
    }),
    server: stringFlag({
      placeholder: 'URL',
      help: "with install: the server's URL (default: wherever the data dir's running server recorded it)",
    }),
    wait: waitFlag(
      'wait',
      'with install: how long a permission request of an interactive session waits for an answer in ' +
        "Warden (10s to 24h); the CLI's own dialog takes no answer meanwhile",
      '2m',
    ),
    'headless-wait': waitFlag(
      'headless-wait',
      'with install: the same for a headless session (claude -p), which denies after it',
      '30m',
    ),
    yes: booleanFlag({ short: 'y', help: 'write without asking (for scripts)' }),
    'data-dir': DATA_DIR,
  },
  build({ values, positionals }): Command {
    const [action] = positionals;
    if (action === undefined)
      throw new UsageError('warden hook needs an action: install, uninstall or status');
    if (!(ACTIONS as readonly string[]).includes(action) || action === 'run')
      throw new UsageError(`Unknown action '${action}'`);
    const installOnly = [values.server, values.wait, values['headless-wait']].some((v) => v !== undefined);
    if (installOnly && action !== 'install')
      throw new UsageError('--server, --wait and --headless-wait go with warden hook install');
    if (values.server !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values.server))
      throw new UsageError('--server is an http(s) URL with no path, e.g. http://127.0.0.1:4390');
    return {
      name: 'hook',
      action: action as 'install' | 'uninstall' | 'status',
      scope: values.scope ?? 'user',
      ...(values.server === undefined ? {} : { server: values.server.replace(/\/$/, '') }),
      ...(values.wait === undefined ? {} : { waitMs: values.wait }),
      ...(values['headless-wait'] === undefined ? {} : { headlessWaitMs: values['headless-wait'] }),
      ...(values.yes === true ? { yes: true } : {}),
      ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    };
  },
});
