// Where the command keeps its threads, events and server token when --data-dir is not given. One process
// at a time may use a data directory: the store holds an exclusive lock, and a second `warden serve`,
// `run` or `demo` on the same directory fails at once with a StoreError (see storeHint).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

import { StoreError } from '../protocol/errors.js';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WARDEN_DATA_DIR !== undefined && env.WARDEN_DATA_DIR !== '') return resolve(env.WARDEN_DATA_DIR);
  const base =
    env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== ''
      ? env.XDG_DATA_HOME
      : join(homedir(), '.local', 'share');
  return join(base, 'warden');
}

/** What to tell the user when the store cannot be opened because another process has it. */
export function storeHint(error: unknown): string {
  const busy =
    error instanceof StoreError && (error.cause as { code?: unknown } | undefined)?.code === 'SQLITE_BUSY';
  return busy ? ' (another warden serve, run or demo? pass --data-dir to use another directory)' : '';
}
