// The flags several commands share, and the checks of their values. A command that takes one with other
// words in its help spreads it: `{ ...PORT, help: '…' }`.
import { HOST_NAME_RULE, isHostName, isPostgresUrl } from '../../store/store-target.js';
import { booleanFlag, stringFlag } from './parser.js';
import { UsageError } from './usage-error.js';

export function checkPort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port must be 0-65535, got '${text}'`);
  return port;
}

/** A value out of a fixed list, or a UsageError naming the list. */
export function oneOf<T extends string>(flag: string, choices: readonly T[]): (text: string) => T {
  return (text) => {
    if (!(choices as readonly string[]).includes(text))
      throw new UsageError(`--${flag} must be one of ${choices.join(', ')}`);
    return text as T;
  };
}

export const PORT = stringFlag({ placeholder: 'N', help: 'where that server listens', check: checkPort });
export const HOST = stringFlag({ placeholder: 'HOST', help: 'the host name or address of that server' });

export const DATA_DIR = stringFlag({
  placeholder: 'DIR',
  common: true,
  help: 'where threads, events and the server token live (kept private: 0700, files 0600)',
  defaultHelp: '$WARDEN_DATA_DIR, else $XDG_DATA_HOME/warden, else ~/.local/share/warden',
});

export const CLAUDE = stringFlag({
  placeholder: 'PATH',
  common: true,
  help: 'the Claude Code executable',
  defaultHelp:
    '$CLAUDE_CODE_EXECUTABLE, claude on PATH, or the installed @anthropic-ai/claude-agent-sdk binary',
});

/** `--store`: a PostgreSQL URL (the commands fall back to $WARDEN_STORE_URL themselves). */
export const STORE = stringFlag({
  placeholder: 'URL',
  help: 'the PostgreSQL database: postgres://user@host:port/database',
  defaultHelp: '$WARDEN_STORE_URL',
  check: (text) => {
    if (!isPostgresUrl(text)) throw new UsageError('--store must be a postgres:// or postgresql:// URL');
    return text;
  },
});

export const HOST_NAME = stringFlag({
  placeholder: 'NAME',
  help: "with --store: this host's name in the fleet sharing that database",
  defaultHelp: "$WARDEN_HOST_NAME, else the machine's name and a hash of the data dir",
  check: (text) => {
    if (!isHostName(text)) throw new UsageError(`--host-name must be ${HOST_NAME_RULE}`);
    return text;
  },
});

export const JSON_FLAG = booleanFlag({ help: 'print JSON' });
