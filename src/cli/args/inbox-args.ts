// `warden inbox`: list the approvals waiting in the running server and answer them, or answer one by id.
import type { Command, InboxBehavior } from './command.js';
import { DATA_DIR, HOST, JSON_FLAG, PORT } from './flags.js';
import { booleanFlag, defineCommand } from './parser.js';
import { UsageError } from './usage-error.js';

const ACTIONS: Record<string, InboxBehavior> = { allow: 'allow', always: 'allow_always', deny: 'deny' };

export const INBOX = defineCommand({
  name: 'inbox',
  synopsis: 'inbox',
  summary:
    'List the approvals waiting in the running server, across threads, and answer them (on a terminal, ' +
    'or with --ask): y allow, a always (the rules are shown), n deny, "n <reason>" deny saying why, ' +
    's skip, q quit',
  positionals: [{ name: 'allow|always|deny' }, { name: 'APPROVAL-ID' }, { name: '[reason]', rest: true }],
  forms: [{ synopsis: 'inbox allow|always|deny APPROVAL-ID [reason]', help: 'answer one without asking' }],
  flags: {
    json: { ...JSON_FLAG, help: 'print the pending approvals as JSON and ask nothing' },
    ask: booleanFlag({ help: 'ask on stdin even when it is not a terminal (one answer per line)' }),
    port: { ...PORT, defaultHelp: 'where it recorded it' },
    host: { ...HOST, defaultHelp: 'where it recorded it' },
    'data-dir': DATA_DIR,
  },
  build({ values, positionals }): Command {
    const flags = {
      ...(values.port === undefined ? {} : { port: values.port }),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    };
    const [action, approvalId, ...reason] = positionals;
    if (action === undefined)
      return {
        name: 'inbox',
        ...flags,
        ...(values.json === true ? { json: true } : {}),
        ...(values.ask === true ? { ask: true } : {}),
      };
    const behavior = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    if (behavior === undefined)
      throw new UsageError(`warden inbox answers with allow, always or deny, not '${action}'`);
    if (approvalId === undefined || approvalId.trim() === '')
      throw new UsageError(`warden inbox ${action} needs the approval's id`);
    if (values.json === true || values.ask === true)
      throw new UsageError(`--json and --ask do not apply to warden inbox ${action}`);
    const message = reason.join(' ').trim();
    if (message !== '' && behavior !== 'deny') throw new UsageError('Only a deny takes a reason');
    return {
      name: 'inbox',
      ...flags,
      answer: { approvalId, behavior, ...(message === '' ? {} : { message }) },
    };
  },
});
