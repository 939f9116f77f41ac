// `warden login`: prints a new single-use login link for the server of a data directory. It needs no
// connection to the server: a link is a ticket minted from the server token (login-ticket.ts), which only
// the data directory's owner can read. The running server accepts it once, within 15 minutes; a server
// started after it was printed does not. The link names the address the user gave or the one the running
// server recorded, never a guess.
import { loginLink } from '../server/index.js';
import { readToken } from '../server/token.js';
import type { CommandOf } from './args/index.js';
import { defaultDataDir } from './data-dir.js';
import { serverUrlOf } from './client/server-address.js';

export function loginCommand(command: CommandOf<'login'>): number {
  const dataDir = command.dataDir ?? defaultDataDir();
  let token: string;
  try {
    token = readToken(dataDir).token;
  } catch (error) {
    process.stderr.write(`warden: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const url = serverUrlOf(dataDir, command);
  if (url === undefined) {
    // Not the default address: whoever listens there would get a ticket good for a server elsewhere.
    process.stderr.write(
      `warden: no running server is recorded in ${dataDir}: start warden serve (it prints a link), ` +
        'or pass the --port/--host its server listens on\n',
    );
    return 1;
  }
  process.stdout.write(`${loginLink(url, token)}\n`);
  process.stderr.write(
    'Open it in your browser within 15 minutes; it works once. Keep it private until then.\n',
  );
  return 0;
}
