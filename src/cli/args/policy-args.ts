// `warden policy simulate`: what a proposed policy change would have decided for the recorded requests.
import { THREAD_MODES } from '../../store/records.js';
import type { Command } from './command.js';
import { SERVER_FLAGS, serverFlags } from './admin-args.js';
import { JSON_FLAG, oneOf } from './flags.js';
import { defineCommand, stringFlag, stringsFlag } from './parser.js';
import { UsageError } from './usage-error.js';
import { parseDuration } from '../duration.js';

function isoTime(flag: string): (text: string) => string {
  return (text) => {
    if (Number.isNaN(Date.parse(text)))
      throw new UsageError(`--${flag} must be an ISO date-time, got '${text}'`);
    return new Date(text).toISOString();
  };
}

function deadlineWait(flag: string): (text: string) => number {
  return (text) => {
    const ms = parseDuration(text);
    if (ms === undefined || ms === 0)
      throw new UsageError(`--${flag} must be a duration such as 30s, 10m or 2h, got '${text}'`);
    return ms;
  };
}

/** `'Bash(npm test:*) 10m allow'`: the rule (which may hold spaces), its wait, what it answers. */
function deadlineRule(text: string): { rule: string; afterMs: number; behavior: 'allow' | 'deny' } {
  const match = /^(.+)\s+(\S+)\s+(allow|deny)$/u.exec(text.trim());
  if (match === null)
    throw new UsageError(`--deadline-rule must be 'RULE DURATION allow|deny', got '${text}'`);
  const [, rule = '', wait = '', behavior] = match;
  return {
    rule,
    afterMs: deadlineWait('deadline-rule')(wait),
    behavior: behavior === 'allow' ? 'allow' : 'deny',
  };
}

export const POLICY = defineCommand({
  name: 'policy',
  synopsis: 'policy simulate [--allow-rule|--deny-rule|--remove-rule RULE]… [--mode MODE] [--deadline…]',
  summary:
    'What a policy change would have decided for the recorded requests, beside what was decided then ' +
    '(through the server while one holds the data dir); nothing is changed',
  positionals: [{ name: 'simulate' }],
  flags: {
    ...SERVER_FLAGS,
    'allow-rule': stringsFlag({ placeholder: 'RULE', help: 'a rule to add to allow (repeatable)' }),
    'deny-rule': stringsFlag({ placeholder: 'RULE', help: 'a rule to add to deny (repeatable)' }),
    'remove-rule': stringsFlag({ placeholder: 'RULE', help: 'a rule to take out (repeatable)' }),
    mode: stringFlag({
      placeholder: 'MODE',
      help: THREAD_MODES.join(' | '),
      check: oneOf('mode', THREAD_MODES),
    }),
    deadline: stringFlag({
      placeholder: 'DURATION',
      help: "a default deadline that denies (10m, 2h), in place of the threads' deadlines",
      check: deadlineWait('deadline'),
    }),
    'deadline-rule': stringsFlag({
      placeholder: "'RULE DURATION allow|deny'",
      help: "a deadline rule (repeatable), in place of the threads' deadlines",
      check: deadlineRule,
    }),
    thread: stringFlag({ placeholder: 'ID', help: 'only this thread (default: every thread)' }),
    cwd: stringFlag({ placeholder: 'DIR', help: 'only the threads in DIR or under it' }),
    since: stringFlag({
      placeholder: 'TIME',
      help: 'requests from then on (ISO date-time)',
      check: isoTime('since'),
    }),
    until: stringFlag({
      placeholder: 'TIME',
      help: 'requests before then (ISO date-time)',
      check: isoTime('until'),
    }),
    json: { ...JSON_FLAG, help: 'print JSON (the summary and every request decided otherwise)' },
  },
  build({ values, positionals }): Command {
    const [action] = positionals;
    if (action !== 'simulate')
      throw new UsageError(
        action === undefined ? 'warden policy needs an action: simulate' : `Unknown action '${action}'`,
      );
    if (values.thread !== undefined && values.cwd !== undefined)
      throw new UsageError('give --thread or --cwd, not both');
    const change = {
      ...(values['allow-rule'] === undefined ? {} : { allow: values['allow-rule'] }),
      ...(values['deny-rule'] === undefined ? {} : { deny: values['deny-rule'] }),
      ...(values['remove-rule'] === undefined ? {} : { remove: values['remove-rule'] }),
      ...(values.mode === undefined ? {} : { mode: values.mode }),
      ...(values.deadline === undefined && values['deadline-rule'] === undefined
        ? {}
        : {
            deadlines: {
              afterMs: values.deadline ?? null,
              rules: values['deadline-rule'] ?? [],
            },
          }),
    };
    if (Object.keys(change).length === 0)
      throw new UsageError(
        'say what would change: --allow-rule, --deny-rule, --remove-rule, --mode, --deadline or --deadline-rule',
      );
    return {
      name: 'policy',
      action: 'simulate',
      ...serverFlags(values),
      change,
      scope:
        values.thread !== undefined
          ? { threadId: values.thread }
          : values.cwd !== undefined
            ? { cwd: values.cwd }
            : 'all',
      ...(values.since === undefined ? {} : { since: values.since }),
      ...(values.until === undefined ? {} : { until: values.until }),
      ...(values.json === true ? { json: true } : {}),
    };
  },
});
