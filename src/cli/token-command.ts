// `warden token create|list|revoke|login <name>`: the named deciders of a data directory. With its server
// running, over the server's API with the owner's token (so a revocation ends the decider's sessions and
// WebSockets at once); without one, on the data directory's deciders file itself. A token is printed once,
// when it is made; the file keeps only its SHA-256.
import { DeciderTokens, type DeciderInfo } from '../server/deciders.js';
import { loginLink } from '../server/server.js';
import { readToken } from '../server/token.js';
import { describeScope } from '../supervisor/index.js';
import type { CommandOf } from './args/index.js';
import { ServerClient } from './client/server-client.js';
import { defaultDataDir } from './data-dir.js';

/** Token requests wait less than the client's default: each is one small file change on the server. */
const TIMEOUT = { timeoutMs: 10_000 };

export async function tokenCommand(command: CommandOf<'token'>): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
  // Undefined when neither --port/--host nor the directory's address file says where a server is.
  const client = ServerClient.locate(dataDir, command);
  const name = command.decider ?? '';
  switch (command.action) {
    case 'create': {
      const scopeAndRole = {
        ...(command.role === undefined ? {} : { role: command.role }),
        ...(command.scope === undefined ? {} : { scope: command.scope }),
      };
      const made =
        client === undefined
          ? {
              ...new DeciderTokens(dataDir).create(name, scopeAndRole),
              loginLink: undefined,
            }
          : await client.post<{ decider: DeciderInfo; token: string; loginLink: string }>(
              '/api/tokens',
              { name, ...scopeAndRole },
              TIMEOUT,
            );
      process.stdout.write(`${made.token}\n`);
      if (made.loginLink !== undefined) process.stdout.write(`${made.loginLink}\n`);
      process.stderr.write(
        `The token of ${name}, shown once: a Bearer token for the API; keep it secret. ` +
          (made.loginLink === undefined
            ? `No server is running: once one is, \`warden token login ${name}\` prints a login link for ${name}.\n`
            : `The link signs one browser in as ${name} (once, within 15 minutes).\n`),
      );
      return 0;
    }
    case 'list': {
      const deciders =
        client === undefined
          ? new DeciderTokens(dataDir).list()
          : (await client.get<{ deciders: DeciderInfo[] }>('/api/tokens', TIMEOUT)).deciders;
      if (command.json === true) process.stdout.write(`${JSON.stringify(deciders)}\n`);
      else if (deciders.length === 0) process.stdout.write('No named deciders (only the owner).\n');
      else
        process.stdout.write(
          `${['NAME\tROLE\tSCOPE\tCREATED\tLAST USED\tREVOKED', ...deciders.map((d) => [d.name, d.role, describeScope(d.scope ?? {}), d.createdAt, d.lastUsedAt ?? '-', d.revokedAt ?? '-'].join('\t'))].join('\n')}\n`,
        );
      return 0;
    }
    case 'revoke': {
      const decider =
        client === undefined
          ? new DeciderTokens(dataDir).revoke(name)
          : (await client.delete<{ decider: DeciderInfo }>(`/api/tokens/${name}`, TIMEOUT)).decider;
      process.stdout.write(
        `Revoked ${decider.name} (${decider.revokedAt ?? ''})${client === undefined ? '' : ': its sessions and WebSockets were ended'}.\n`,
      );
      return 0;
    }
    case 'login': {
      if (client === undefined) {
        process.stderr.write(`warden: no running server is recorded in ${dataDir}; pass --port/--host\n`);
        return 1;
      }
      if (!new DeciderTokens(dataDir).isActive(name)) {
        process.stderr.write(`warden: ${name} is not a decider of ${dataDir} (or was revoked)\n`);
        return 1;
      }
      process.stdout.write(`${loginLink(client.url, readToken(dataDir).token, name)}\n`);
      process.stderr.write(
        `Signs one browser in as ${name}: within 15 minutes, once. Keep it private until then.\n`,
      );
      return 0;
    }
  }
}
