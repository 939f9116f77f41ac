// `warden agents`: the detached agents of a data directory (list), and `warden agents stop THREAD|--all`.
import type { Command } from './command.js';
import { SERVER_FLAGS, serverFlags } from './admin-args.js';
import { JSON_FLAG } from './flags.js';
import { booleanFlag, defineCommand } from './parser.js';
import { UsageError } from './usage-error.js';

export const AGENTS = defineCommand({
  name: 'agents',
  synopsis: 'agents',
  summary:
    "List the data dir's detached agents: thread, pid, running or gone, until when an idle one lives with " +
    'no server (or that it waits for one), folder',
  positionals: [{ name: 'stop' }, { name: 'THREAD' }],
  forms: [
    {
      synopsis: 'agents stop THREAD | --all',
      help:
        "end one thread's agent (its id, or the start of it) or every one; through the server while one " +
        'holds the data dir; the next message resumes the thread',
    },
  ],
  flags: {
    ...SERVER_FLAGS,
    all: booleanFlag({ help: 'with stop: every agent of the data dir' }),
    json: { ...JSON_FLAG, help: 'print JSON (the list)' },
  },
  build({ values, positionals }): Command {
    const [action, threadId] = positionals;
    const all = values.all === true;
    const base = { name: 'agents' as const, ...serverFlags(values) };
    if (action === undefined) {
      if (all) throw new UsageError('--all goes with warden agents stop');
      return { ...base, ...(values.json === true ? { json: true } : {}) };
    }
    if (action !== 'stop') throw new UsageError(`Unknown action '${action}'`);
    if (values.json === true) throw new UsageError('--json goes with the list, not with stop');
    if (all && threadId !== undefined) throw new UsageError('give a thread or --all, not both');
    if (all) return { ...base, stop: { all: true } };
    if (threadId === undefined || threadId === '')
      throw new UsageError('warden agents stop needs a thread id (warden agents lists them), or --all');
    return { ...base, stop: { threadId } };
  },
});
