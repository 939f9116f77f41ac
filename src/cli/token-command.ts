// `warden token create|list|revoke|login <name>`: the named deciders of a data directory. With its server
// running, over the server's API with the owner's token (so a revocation ends the decider's sessions and
// WebSockets at once); without one, on the data directory's deciders file itself. A token is printed once,
// when it is made; the file keeps only its SHA-256.
import { parseArgs } from 'node:util';

import { DeciderTokens, validateDeciderName, type DeciderInfo } from '../server/deciders.js';
import { loginLink } from '../server/server.js';
import { readToken } from '../server/token.js';
import { UsageError } from './args.js';
import { defaultDataDir } from './data-dir.js';
import { serverUrlOf } from './login-command.js';

export const TOKEN_USAGE = `Usage: warden token create NAME | list | revoke NAME | login NAME [--data-dir DIR] [--port N] [--host HOST]
`;

export async function tokenCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseOrUsage(argv);
  const [action, name, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`Unexpected argument '${extra}'`);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const url = serverUrlOf(dataDir, {
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
  });
  const needName = (): string => {
    if (name === undefined) throw new UsageError(`warden token ${action ?? ''} needs a name`);
    try {
      return validateDeciderName(name);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  };
  switch (action) {
    case 'create': {
      const valid = needName();
      const made =
        url === undefined
          ? { ...new DeciderTokens(dataDir).create(valid), loginLink: undefined }
          : await ask<{ decider: DeciderInfo; token: string; loginLink: string }>(
              dataDir,
              url,
              'POST',
              '/api/tokens',
              {
                name: valid,
              },
            );
      process.stdout.write(`${made.token}\n`);
      if (made.loginLink !== undefined) process.stdout.write(`${made.loginLink}\n`);
      process.stderr.write(
        `The token of ${valid}, shown once: a Bearer token for the API; keep it secret. ` +
          (made.loginLink === undefined
            ? `No server is running: once one is, \`warden token login ${valid}\` prints a login link for ${valid}.\n`
            : `The link signs one browser in as ${valid} (once, within 15 minutes).\n`),
      );
      return 0;
    }
    case 'list': {
      const deciders =
        url === undefined
          ? new DeciderTokens(dataDir).list()
          : (await ask<{ deciders: DeciderInfo[] }>(dataDir, url, 'GET', '/api/tokens')).deciders;
      if (values.json === true) process.stdout.write(`${JSON.stringify(deciders)}\n`);
      else if (deciders.length === 0) process.stdout.write('No named deciders (only the owner).\n');
      else
        process.stdout.write(
          `${['NAME\tCREATED\tLAST USED\tREVOKED', ...deciders.map((d) => [d.name, d.createdAt, d.lastUsedAt ?? '-', d.revokedAt ?? '-'].join('\t'))].join('\n')}\n`,
        );
      return 0;
    }
    case 'revoke': {
      const valid = needName();
      const decider =
        url === undefined
          ? new DeciderTokens(dataDir).revoke(valid)
          : (await ask<{ decider: DeciderInfo }>(dataDir, url, 'DELETE', `/api/tokens/${valid}`)).decider;
      process.stdout.write(
        `Revoked ${decider.name} (${decider.revokedAt ?? ''})${url === undefined ? '' : ': its sessions and WebSockets were ended'}.\n`,
      );
      return 0;
    }
    case 'login': {
      const valid = needName();
      if (url === undefined) {
        process.stderr.write(`warden: no running server is recorded in ${dataDir}; pass --port/--host\n`);
        return 1;
      }
      if (!new DeciderTokens(dataDir).isActive(valid)) {
        process.stderr.write(`warden: ${valid} is not a decider of ${dataDir} (or was revoked)\n`);
        return 1;
      }
      process.stdout.write(`${loginLink(url, readToken(dataDir).token, valid)}\n`);
      process.stderr.write(
        `Signs one browser in as ${valid}: within 15 minutes, once. Keep it private until then.\n`,
      );
      return 0;
    }
    case undefined:
      throw new UsageError(`warden token needs an action\n${TOKEN_USAGE}`);
    default:
      throw new UsageError(`Unknown action '${action}'\n${TOKEN_USAGE}`);
  }
}

function parseOrUsage(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${TOKEN_USAGE}`);
  }
}

/** Calls the server's API with the owner's token; a refusal is an Error with the server's message. */
export async function ask<T>(
  dataDir: string,
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${readToken(dataDir).token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    signal: AbortSignal.timeout(10_000),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!response.ok) throw new Error(`${url}${path}: ${json?.error?.message ?? `HTTP ${response.status}`}`);
  return json as T;
}
