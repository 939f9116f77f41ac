// The commands that look at a data directory or a fleet without running agents: `warden login`, `status`,
// `token`, `hosts` and `audit`.
import type { AuditFormat } from '../../server/audit-export.js';
import { DECIDER_ROLES, validateDeciderName, type DeciderRole } from '../../server/deciders.js';
import { SCOPE_FLAGS, scopeOf } from './scope-flags.js';
import type { Command, ServerFlags } from './command.js';
import { DATA_DIR, HOST, HOST_NAME, JSON_FLAG, oneOf, PORT, STORE } from './flags.js';
import { defineCommand, stringFlag, withDefault, type FlagValues } from './parser.js';
import { UsageError } from './usage-error.js';

/** `--port`, `--host` and `--data-dir` of a command that finds the data directory's server. */
export const SERVER_FLAGS = {
  port: { ...PORT, defaultHelp: 'where the server recorded it' },
  host: { ...HOST, defaultHelp: 'where the server recorded it' },
  'data-dir': DATA_DIR,
};

export function serverFlags(values: FlagValues<typeof SERVER_FLAGS>): ServerFlags {
  return {
    ...(values.port === undefined ? {} : { port: values.port }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
  };
}

export const LOGIN = defineCommand({
  name: 'login',
  synopsis: 'login',
  summary: 'Print a new single-use login link for the running server (valid 15 minutes)',
  positionals: [],
  flags: SERVER_FLAGS,
  build: ({ values }): Command => ({ name: 'login', ...serverFlags(values) }),
});

export const STATUS = defineCommand({
  name: 'status',
  synopsis: 'status',
  summary:
    "Show each thread's CLI process: pid, running or gone, detached or not, pending approvals, and " +
    'whether a server holds the data dir (never takes it over)',
  positionals: [],
  flags: {
    ...SERVER_FLAGS,
    store: {
      ...STORE,
      help:
        "read a fleet's PostgreSQL store instead, servers running or not; threads of other hosts show " +
        'their host and its lease',
    },
    'host-name': {
      ...HOST_NAME,
      help: 'with --store: the host whose CLIs run on this machine',
      defaultHelp: 'as for serve',
    },
  },
  build: ({ values }): Command => ({
    name: 'status',
    ...serverFlags(values),
    ...(values.store === undefined ? {} : { store: values.store }),
    ...(values['host-name'] === undefined ? {} : { hostName: values['host-name'] }),
  }),
});

const TOKEN_ACTIONS = ['create', 'list', 'revoke', 'login'] as const;

export const TOKEN = defineCommand({
  name: 'token',
  synopsis: 'token create NAME | list | revoke NAME | login NAME',
  summary:
    'Named deciders: a token of their own (printed once; only its hash is kept), when each was made, ' +
    'last used, revoked; revoking ends its sessions at once; login prints a login link for NAME. With ' +
    "the server running it is asked; without one, the data dir's deciders file is changed",
  positionals: [{ name: 'create|list|revoke|login' }, { name: 'NAME' }],
  flags: {
    ...SERVER_FLAGS,
    role: stringFlag<DeciderRole>({
      placeholder: 'ROLE',
      help:
        'with create: approver (answers and reads), operator (all but tokens), observer (sees ' +
        'everything, changes nothing) or hook (reports hook events only: warden hook install makes one)',
      defaultHelp: 'approver',
      check: oneOf('role', DECIDER_ROLES),
    }),
    ...SCOPE_FLAGS,
    json: { ...JSON_FLAG, help: 'with list: print JSON' },
  },
  build({ values, positionals }): Command {
    const [action, name] = positionals;
    const scope = scopeOf(values);
    if ((values.role !== undefined || scope !== undefined) && action !== 'create')
      throw new UsageError('--role and the scope flags go with create');
    if (action === undefined) throw new UsageError('warden token needs an action');
    if (!(TOKEN_ACTIONS as readonly string[]).includes(action))
      throw new UsageError(`Unknown action '${action}'`);
    const known = action as (typeof TOKEN_ACTIONS)[number];
    const decider = known === 'list' ? undefined : deciderName(known, name);
    return {
      name: 'token',
      action: known,
      ...serverFlags(values),
      ...(decider === undefined ? {} : { decider }),
      ...(values.role === undefined ? {} : { role: values.role }),
      ...(scope === undefined ? {} : { scope }),
      ...(values.json === true ? { json: true } : {}),
    };
  },
});

function deciderName(action: string, name: string | undefined): string {
  if (name === undefined) throw new UsageError(`warden token ${action} needs a name`);
  try {
    return validateDeciderName(name);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export const HOSTS = defineCommand({
  name: 'hosts',
  synopsis: 'hosts',
  summary:
    'List the hosts of a fleet sharing a PostgreSQL store: lease (live or expired, seconds since the ' +
    'last heartbeat), CLIs running, capacity, workspace roots',
  positionals: [],
  flags: { store: { ...STORE, help: 'the database' }, json: JSON_FLAG },
  build: ({ values }): Command => ({
    name: 'hosts',
    ...(values.store === undefined ? {} : { store: values.store }),
    ...(values.json === true ? { json: true } : {}),
  }),
});

export const AUDIT = defineCommand({
  name: 'audit',
  synopsis: 'audit',
  summary: 'Print the audit trail (every decision: who, when, what, edits, outcome), hash-chained',
  positionals: [{ name: 'verify' }],
  forms: [
    {
      synopsis: 'audit verify',
      help: 'check the chain from its first record; names the first broken one (exit 1)',
    },
  ],
  flags: {
    format: withDefault(
      stringFlag<AuditFormat>({
        placeholder: 'F',
        help: 'jsonl | csv',
        defaultHelp: 'jsonl',
        check: (text) => {
          if (text !== 'jsonl' && text !== 'csv') throw new UsageError('--format must be jsonl or csv');
          return text;
        },
      }),
      () => 'jsonl',
    ),
    since: stringFlag({ placeholder: 'TIME', help: 'records from then on', check: parseSince }),
    store: {
      ...STORE,
      help: "read a PostgreSQL store's trail, servers running or not (--port and --host do not apply)",
    },
    ...SERVER_FLAGS,
  },
  build({ values, positionals, given }): Command {
    const [action] = positionals;
    if (action !== undefined && action !== 'verify') throw new UsageError(`Unexpected argument '${action}'`);
    const verify = action === 'verify';
    if (verify && (given.has('since') || given.has('format')))
      throw new UsageError('warden audit verify checks the whole chain: --since and --format do not apply');
    return {
      name: 'audit',
      format: values.format,
      ...(verify ? { verify } : {}),
      ...(values.since === undefined ? {} : { since: values.since }),
      ...(values.store === undefined ? {} : { store: values.store }),
      ...serverFlags(values),
    };
  },
});

function parseSince(text: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time))
    throw new UsageError(`--since must be an ISO 8601 date or date-time, got '${text}'`);
  return new Date(time).toISOString();
}
