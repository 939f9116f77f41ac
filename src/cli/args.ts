// The command line: which command, which flags. Anything malformed is a UsageError (exit code 2) that
// says what was wrong; the usage text is the reference (docs/cli.md says the same at more length).
import { parseArgs } from 'node:util';

import { WEBHOOK_FORMATS, type WebhookFormat } from '../server/notify/formats.js';
import { isHttpUrl, isPushSubject } from '../server/notify/notify-options.js';
import { HOST_NAME_RULE, isHostName, isPostgresUrl } from '../store/store-target.js';
import { THREAD_MODES, type ThreadMode } from '../store/records.js';
import { parseDuration } from './duration.js';

export const USAGE = `Usage: warden <command> [options]

Commands:
  run "prompt"   Run an agent in this terminal and answer its permission requests
      --cwd DIR          working directory of the agent (default: the current directory)
      --mode MODE        supervised | auto-edits | full-access (default: supervised)
      --model NAME       the model the CLI should use
      --yes, -y          allow every permission request (for pipes and scripts)
      --deny             deny every permission request
      --ask              ask on stdin even when it is not a terminal (one answer per line)
      --demo             try it offline: the demo's scripted model in a temporary directory (the
                         prompt is optional; the demo's own is used without one)
                 With a warden serve running on the data dir, the thread is created in that server:
                 its approvals can be answered here or in the browser
  serve          Start the HTTP/WebSocket API and the web UI; prints the login link
      --port N           default 4390
      --host HOST        default 127.0.0.1; any other value exposes the server to that network
      --stop-agents      on Ctrl-C/SIGTERM end the agents too (default: they keep running, detached,
                         and the next serve on the same data dir re-attaches with their approvals)
      --webhook URL      POST each approval (a preview of its input, single-use allow/deny links) and
                         its settling to this http(s) URL, signed; repeatable (default: none)
      --webhook-format F json | slack | ntfy, for the --webhook before it (default: json)
      --web-push         let browsers subscribe from the UI to Web Push of approvals (default: off)
      --push-contact URL mailto: or https: contact the push services see (default: mailto:warden@localhost)
      --park-after D     stop an agent's CLI once it has had nothing to do for D (30s, 10m, 2h; 0 or
                         never: keep it); its next message resumes it (default: 10m)
      --store URL        keep the event log in PostgreSQL: postgres://user@host:port/database (default:
                         $WARDEN_STORE_URL, else SQLite in the data dir; spools and keys stay there)
      --host-name NAME   with --store: this host's name in the fleet sharing that database (default:
                         $WARDEN_HOST_NAME, else the machine's name and a hash of the data dir)
  login          Print a new single-use login link for the running server (valid 15 minutes)
      --port N, --host HOST   where that server listens (default 4390, 127.0.0.1)
  inbox          List the approvals waiting in the running server, across threads, and answer them
                 (on a terminal, or with --ask): y allow, a always (the rules are shown), n deny,
                 "n <reason>" deny saying why, s skip, q quit
      inbox allow|always|deny APPROVAL-ID [reason]   answer one without asking
      --json             print the pending approvals as JSON and ask nothing
      --port N, --host HOST   where that server listens (default: where it recorded it)
  status         Show each thread's CLI process: pid, running or gone, detached or not, pending
                 approvals, and whether a server holds the data dir (never takes it over)
      --port N, --host HOST   where that server listens, to ask it (default 4390, 127.0.0.1)
      --store URL        read a fleet's PostgreSQL store instead, servers running or not (default:
                         $WARDEN_STORE_URL); threads of other hosts show their host and its lease
      --host-name NAME   with --store: the host whose CLIs run on this machine (default as for serve)
  token create NAME | list | revoke NAME | login NAME
                 Named deciders: a token of their own (printed once; only its hash is kept), when
                 each was made, last used, revoked; revoking ends its sessions at once; login prints
                 a login link for NAME (--port/--host, --data-dir as for login)
  hosts          List the hosts of a fleet sharing a PostgreSQL store: lease (live or expired, seconds
                 since the last heartbeat), CLIs running, capacity, workspace roots
      --store URL        the database (default: $WARDEN_STORE_URL)     --json   print JSON
  audit          Print the audit trail (every decision: who, when, what, edits, outcome), hash-chained
      --format F         jsonl | csv (default: jsonl)     --since TIME   records from then on
      audit verify       check the chain from its first record; names the first broken one (exit 1)
      --store URL        read a PostgreSQL store's trail, servers running or not (default: $WARDEN_STORE_URL)
  demo           Start a scripted demo (no API key needed): a background subagent asks for permission
      --port N, --host HOST   as for serve (default port: any free one)

Common options:
  --data-dir DIR   where threads, events and the server token live (kept private: 0700, files 0600)
                   (default: $WARDEN_DATA_DIR, else $XDG_DATA_HOME/warden, else ~/.local/share/warden)
  --claude PATH    the Claude Code executable (default: $CLAUDE_CODE_EXECUTABLE, claude on PATH, or the
                   installed @anthropic-ai/claude-agent-sdk binary)
  --help, -h       this text          --version   the version

Exit codes: 0 done, 1 the run failed, 2 usage error, 130 interrupted (Ctrl-C).
`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Command =
  | { name: 'help' }
  | { name: 'version' }
  | {
      name: 'run';
      prompt: string;
      cwd: string;
      mode: ThreadMode;
      model?: string;
      policy: 'yes' | 'deny' | 'ask' | 'auto';
      /** Run offline with the demo's scripted model, in temporary directories. */
      demo?: boolean;
      dataDir?: string;
      claude?: string;
    }
  | ({
      name: 'inbox';
      /** Answer one approval and ask nothing; without it, list the pending ones (and ask). */
      answer?: { approvalId: string; behavior: 'allow' | 'allow_always' | 'deny'; message?: string };
      json?: boolean;
      ask?: boolean;
    } & ServerFlags)
  | ({
      name: 'serve';
      webhooks?: { url: string; format: WebhookFormat }[];
      webPush?: { subject?: string };
      /** Park an idle CLI after this many ms (0: never); absent, the supervisor's default. */
      parkAfterMs?: number;
      /** A postgres:// URL: the event log lives there instead of SQLite in the data dir. */
      store?: string;
      /** With `store`: this host's name in the fleet. */
      hostName?: string;
    } & ServerFlags)
  | { name: 'hosts'; store?: string; json?: boolean }
  | ({ name: 'demo' } & ServerFlags)
  | ({ name: 'login' } & ServerFlags)
  | ({
      name: 'status';
      /** A postgres:// URL: read the fleet's log there instead of SQLite in the data dir. */
      store?: string;
      /** With `store`: the host whose CLIs run on this machine (their pids are checked here). */
      hostName?: string;
    } & ServerFlags)
  /** Parsed by their own modules (token-command.ts, audit-command.ts). */
  | { name: 'token' | 'audit'; argv: string[] };

interface ServerFlags {
  port?: number;
  stopAgents?: boolean;
  host?: string;
  dataDir?: string;
  claude?: string;
}

const OPTIONS = {
  cwd: { type: 'string' },
  mode: { type: 'string' },
  model: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  deny: { type: 'boolean' },
  ask: { type: 'boolean' },
  demo: { type: 'boolean' },
  json: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  claude: { type: 'string' },
  'stop-agents': { type: 'boolean' },
  webhook: { type: 'string', multiple: true },
  'webhook-format': { type: 'string', multiple: true },
  'web-push': { type: 'boolean' },
  'push-contact': { type: 'string' },
  'park-after': { type: 'string' },
  store: { type: 'string' },
  'host-name': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

const ALLOWED: Record<string, readonly string[]> = {
  run: ['cwd', 'mode', 'model', 'yes', 'deny', 'ask', 'demo', 'data-dir', 'claude'],
  inbox: ['json', 'ask', 'port', 'host', 'data-dir'],
  serve: [
    'port',
    'host',
    'data-dir',
    'claude',
    'stop-agents',
    'webhook',
    'webhook-format',
    'web-push',
    'push-contact',
    'park-after',
    'store',
    'host-name',
  ],
  hosts: ['store', 'json'],
  login: ['port', 'host', 'data-dir'],
  status: ['port', 'host', 'data-dir', 'store', 'host-name'],
  demo: ['port', 'host'],
};

export function parseCommand(argv: readonly string[]): Command {
  if (argv[0] === 'token' || argv[0] === 'audit') return { name: argv[0], argv: argv.slice(1) };
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  if (values.help === true || name === 'help') return { name: 'help' };
  if (values.version === true) return { name: 'version' };
  if (name === undefined) throw new UsageError('No command given');
  const allowed = ALLOWED[name];
  if (allowed === undefined) throw new UsageError(`Unknown command '${name}'`);
  for (const key of Object.keys(values))
    if (!allowed.includes(key)) throw new UsageError(`--${key} does not apply to 'warden ${name}'`);
  const common = {
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    ...(values.claude === undefined ? {} : { claude: values.claude }),
  };

  if (name === 'run') {
    const prompt = rest.join(' ').trim();
    const demo = values.demo === true;
    if (prompt === '' && !demo) throw new UsageError('warden run needs a prompt: warden run "what to do"');
    if (demo)
      for (const key of ['cwd', 'data-dir', 'model'] as const)
        if (values[key] !== undefined)
          throw new UsageError(
            `--${key} does not apply to warden run --demo (it runs in a temporary directory)`,
          );
    if (values.yes === true && values.deny === true) throw new UsageError('Pass --yes or --deny, not both');
    const mode = values.mode ?? 'supervised';
    if (!(THREAD_MODES as readonly string[]).includes(mode))
      throw new UsageError(`--mode must be one of ${THREAD_MODES.join(', ')}`);
    return {
      name,
      prompt,
      cwd: values.cwd ?? process.cwd(),
      mode: mode as ThreadMode,
      ...(values.model === undefined ? {} : { model: values.model }),
      policy:
        values.yes === true ? 'yes' : values.deny === true ? 'deny' : values.ask === true ? 'ask' : 'auto',
      ...(demo ? { demo } : {}),
      ...common,
    };
  }
  if (name === 'inbox') return parseInbox(rest, values, common);
  if (name === 'hosts') {
    if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0] ?? ''}'`);
    return { name, ...storeFlags(values), ...(values.json === true ? { json: true } : {}) };
  }
  if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0] ?? ''}'`);
  const flags: ServerFlags = {
    ...(values.port === undefined ? {} : { port: parsePort(values.port) }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values['stop-agents'] === true ? { stopAgents: true } : {}),
    ...common,
  };
  if (name === 'serve') {
    const webhooks = parseWebhooks(parsed.tokens);
    const contact = values['push-contact'];
    if (contact !== undefined && values['web-push'] !== true)
      throw new UsageError('--push-contact goes with --web-push');
    if (contact !== undefined && !isPushSubject(contact))
      throw new UsageError(`--push-contact must be a mailto: or https: URL, got '${contact}'`);
    const parkAfter = values['park-after'];
    const parkAfterMs = parkAfter === undefined ? undefined : parseDuration(parkAfter);
    if (parkAfter !== undefined && parkAfterMs === undefined)
      throw new UsageError(
        `--park-after must be a duration such as 30s, 10m or 2h (at most 24 days), or 0 or never, got '${parkAfter}'`,
      );
    return {
      name,
      ...flags,
      ...storeFlags(values),
      ...(webhooks.length === 0 ? {} : { webhooks }),
      ...(values['web-push'] === true ? { webPush: contact === undefined ? {} : { subject: contact } } : {}),
      ...(parkAfterMs === undefined ? {} : { parkAfterMs }),
    };
  }
  if (name === 'status') return { name, ...flags, ...storeFlags(values) };
  if (name === 'login') return { name, ...flags };
  return { name: 'demo', ...flags };
}

const INBOX_ACTIONS = { allow: 'allow', always: 'allow_always', deny: 'deny' } as const;

/** `--store` and `--host-name`, checked: the commands that open or read a fleet's database take them. */
function storeFlags(values: { store?: string; 'host-name'?: string }): { store?: string; hostName?: string } {
  const { store } = values;
  if (store !== undefined && !isPostgresUrl(store))
    throw new UsageError('--store must be a postgres:// or postgresql:// URL');
  const hostName = values['host-name'];
  if (hostName !== undefined && !isHostName(hostName))
    throw new UsageError(`--host-name must be ${HOST_NAME_RULE}`);
  return {
    ...(store === undefined ? {} : { store }),
    ...(hostName === undefined ? {} : { hostName }),
  };
}

function parseInbox(
  rest: readonly string[],
  values: { json?: boolean; ask?: boolean; port?: string; host?: string },
  common: { dataDir?: string },
): Extract<Command, { name: 'inbox' }> {
  const flags = {
    ...(values.port === undefined ? {} : { port: parsePort(values.port) }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...common,
  };
  const [action, approvalId, ...reason] = rest;
  if (action === undefined)
    return {
      name: 'inbox',
      ...flags,
      ...(values.json === true ? { json: true } : {}),
      ...(values.ask === true ? { ask: true } : {}),
    };
  if (!Object.hasOwn(INBOX_ACTIONS, action))
    throw new UsageError(`warden inbox answers with allow, always or deny, not '${action}'`);
  if (approvalId === undefined || approvalId.trim() === '')
    throw new UsageError(`warden inbox ${action} needs the approval's id`);
  if (values.json === true || values.ask === true)
    throw new UsageError(`--json and --ask do not apply to warden inbox ${action}`);
  const behavior = INBOX_ACTIONS[action as keyof typeof INBOX_ACTIONS];
  const message = reason.join(' ').trim();
  if (message !== '' && behavior !== 'deny') throw new UsageError('Only a deny takes a reason');
  return {
    name: 'inbox',
    ...flags,
    answer: { approvalId, behavior, ...(message === '' ? {} : { message }) },
  };
}

/** `--webhook URL [--webhook-format F]`, in order: a format applies to the URL given before it. */
function parseWebhooks(
  tokens: readonly { kind: string; name?: string; value?: string | undefined }[],
): { url: string; format: WebhookFormat }[] {
  const webhooks: { url: string; format: WebhookFormat }[] = [];
  let formatted = true;
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'webhook') {
      if (!isHttpUrl(token.value))
        throw new UsageError(`--webhook must be an http(s) URL, got '${token.value ?? ''}'`);
      webhooks.push({ url: token.value, format: 'json' });
      formatted = false;
    } else if (token.name === 'webhook-format') {
      const last = webhooks.at(-1);
      if (last === undefined || formatted)
        throw new UsageError('--webhook-format goes after the --webhook it applies to');
      if (!(WEBHOOK_FORMATS as readonly (string | undefined)[]).includes(token.value))
        throw new UsageError(`--webhook-format must be one of ${WEBHOOK_FORMATS.join(', ')}`);
      last.format = token.value as WebhookFormat;
      formatted = true;
    }
  }
  return webhooks;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port must be 0-65535, got '${text}'`);
  return port;
}
