// The flags that narrow what a decider answers (`warden token create NAME --project /srv/app --risk
// network`) and what a route covers (`warden serve --route`): one flag per kind of scope, repeatable.
import {
  APPROVAL_RISKS,
  validateScope,
  type ApprovalRisk,
  type ApprovalScope,
} from '../../supervisor/index.js';
import { oneOf } from './flags.js';
import { booleanFlag, stringsFlag, type FlagValues } from './parser.js';
import { UsageError } from './usage-error.js';

export const SCOPE_FLAGS = {
  project: stringsFlag({
    placeholder: 'DIR',
    help: 'with create: answers approvals of threads in DIR or below it (an absolute path); repeatable',
    defaultHelp: 'every project',
  }),
  tool: stringsFlag({
    placeholder: 'TOOL',
    help: 'with create: answers approvals of this tool (Bash, Edit, mcp__…); repeatable',
    defaultHelp: 'every tool',
  }),
  rule: stringsFlag({
    placeholder: 'RULE',
    help: "with create: answers calls any part of which RULE matches ('Bash(git push:*)'); repeatable",
    defaultHelp: 'every call',
  }),
  risk: stringsFlag<ApprovalRisk>({
    placeholder: 'RISK',
    help: `with create: answers calls with this risk (${APPROVAL_RISKS.join(', ')}: a protected write, the network, any Bash); repeatable`,
    defaultHelp: 'any',
    check: oneOf('risk', APPROVAL_RISKS),
  }),
  'escalation-only': booleanFlag({
    help: 'with create: answers only what a route escalates to it (warden serve --route)',
  }),
};

/** The scope the flags give, checked; undefined when none was given. */
export function scopeOf(values: FlagValues<typeof SCOPE_FLAGS>): ApprovalScope | undefined {
  const given = {
    ...(values.project === undefined ? {} : { projects: values.project }),
    ...(values.tool === undefined ? {} : { tools: values.tool }),
    ...(values.rule === undefined ? {} : { rules: values.rule }),
    ...(values.risk === undefined ? {} : { risks: values.risk }),
    ...(values['escalation-only'] === true ? { escalationOnly: true } : {}),
  };
  if (Object.keys(given).length === 0) return undefined;
  try {
    return validateScope(given);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.replace(/^scope\./, '--') : String(error));
  }
}
