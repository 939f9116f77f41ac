// Where the running `warden serve` of a data directory is reached: as `--host`/`--port` say when given,
// else where that server recorded it (`server.json`, trusted only as address-file.ts says). Never a guess:
// the commands send the token there, and any local user may listen on the default port.
import { liveServerAddress } from '../../server/address-file.js';

export const DEFAULT_PORT = 4390;

/** The server's base URL, or undefined when neither the flags nor a trusted address file say. */
export function serverUrlOf(dataDir: string, flags: { host?: string; port?: number }): string | undefined {
  if (flags.host !== undefined || flags.port !== undefined) return serverUrlFor(flags.host, flags.port);
  return liveServerAddress(dataDir)?.url;
}

/** Where a server started with `--host`/`--port` is reached from this machine. */
export function serverUrlFor(host = '127.0.0.1', port = DEFAULT_PORT): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
