// What part of the approvals a decider answers, or a route covers: projects (a prefix of the thread's
// working directory), tools, rules (`Bash(git push:*)`: a call any part of which the rule matches, as a
// deny rule would match it), and risks (a protected or sensitive write, the network, any Bash). Each kind
// given must hold, any one entry of it will do; an empty scope covers everything. Pure: the server asks it
// who may answer, the supervisor which route an approval takes.
import { isAbsolute, sep } from 'node:path';

import { ValidationError } from '../../protocol/errors.js';
import type { ApprovalRisk } from '../../store/records.js';
import { analyzeShell } from '../../policy/shell-commands.js';
import { compileRule, ruleMatches } from '../../policy/rules.js';

export const APPROVAL_RISKS = ['protected', 'network', 'bash'] as const satisfies readonly ApprovalRisk[];

export interface ApprovalScope {
  /** Working directories the thread's must be or be inside of (absolute paths). */
  projects?: string[];
  /** Tool names (`Bash`, `Edit`, `mcp__github__create_issue`). */
  tools?: string[];
  /** Permission rules, any part of the call matching. */
  rules?: string[];
  risks?: ApprovalRisk[];
  /** Covers nothing by itself: the decider answers only what a route escalates to it (routes.ts). */
  escalationOnly?: boolean;
}

/** What a scope is judged against: the call, where it runs and its risks. */
export interface ScopeTarget {
  toolName: string;
  input: Record<string, unknown>;
  cwd: string;
  risks: readonly ApprovalRisk[];
}

const MAX_ENTRIES = 32;
const KINDS = ['projects', 'tools', 'rules', 'risks'] as const;

/** Checks a scope a caller passes; undefined and `{}` both mean "everything". */
export function validateScope(value: unknown, field = 'scope'): ApprovalScope {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ValidationError(
      `${field} must be { projects?, tools?, rules?, risks?, escalationOnly? }`,
      field,
    );
  const scope: ApprovalScope = {};
  for (const [key, list] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'escalationOnly') {
      if (typeof list !== 'boolean')
        throw new ValidationError(`${field}.escalationOnly must be a boolean`, field);
      if (list) scope.escalationOnly = true;
      continue;
    }
    if (!(KINDS as readonly string[]).includes(key))
      throw new ValidationError(`${field}.${key} is not a scope (${KINDS.join(', ')})`, field);
    const where = `${field}.${key}`;
    if (
      !Array.isArray(list) ||
      list.length > MAX_ENTRIES ||
      list.some((v) => typeof v !== 'string' || v === '')
    )
      throw new ValidationError(`${where} must be a list of at most ${MAX_ENTRIES} names`, where);
    const entries = list as string[];
    if (entries.length === 0) continue;
    if (key === 'projects' && entries.some((path) => !isAbsolute(path)))
      throw new ValidationError(`${where} must be absolute paths`, where);
    if (key === 'rules') entries.forEach((rule, i) => compileRule(rule, `${where}[${i}]`));
    if (key === 'risks' && entries.some((risk) => !(APPROVAL_RISKS as readonly string[]).includes(risk)))
      throw new ValidationError(`${where} must name risks of ${APPROVAL_RISKS.join(', ')}`, where);
    (scope as Record<string, string[]>)[key] = [...new Set(entries)];
  }
  return scope;
}

export function scopeCovers(scope: ApprovalScope, target: ScopeTarget): boolean {
  const { projects, tools, rules, risks } = scope;
  if (scope.escalationOnly === true) return false;
  if (projects !== undefined && !projects.some((project) => within(target.cwd, project))) return false;
  if (tools !== undefined && !tools.includes(target.toolName)) return false;
  if (
    rules !== undefined &&
    !rules.some((rule) => ruleMatches(compileRule(rule), target.toolName, target.input, target.cwd, 'deny'))
  )
    return false;
  return risks === undefined || risks.some((risk) => target.risks.includes(risk));
}

/** A scope as one line, for messages and the CLI ("projects /srv/app; risks network"). */
export function describeScope(scope: ApprovalScope): string {
  const parts = KINDS.flatMap((kind) => {
    const list = scope[kind];
    return list === undefined ? [] : [`${kind} ${list.join(', ')}`];
  });
  if (scope.escalationOnly === true) parts.unshift('only what a route escalates');
  return parts.length === 0 ? 'everything' : parts.join('; ');
}

/** Programs and tools that reach the network (a route for "anything that talks to the outside"). */
const NETWORK_TOOLS = new Set(['WebFetch', 'WebSearch']);
const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'nc',
  'ncat',
  'telnet',
  'ftp',
  'http',
  'xh',
]);
const NETWORK_GIT = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'remote']);
const NETWORK_INSTALLERS = new Set(['npm', 'pnpm', 'yarn', 'pip', 'pip3', 'cargo', 'gem', 'go']);
const INSTALL_WORDS = new Set(['install', 'add', 'i', 'get', 'publish', 'update', 'ci']);

/** The risks of a call; `guarded`: the policy asked because it writes a protected or sensitive file. */
export function risksOf(toolName: string, input: Record<string, unknown>, guarded: boolean): ApprovalRisk[] {
  const risks: ApprovalRisk[] = guarded ? ['protected'] : [];
  if (NETWORK_TOOLS.has(toolName)) risks.push('network');
  if (toolName !== 'Bash') return risks;
  risks.push('bash');
  const command = input.command;
  if (typeof command === 'string' && reachesNetwork(command)) risks.push('network');
  return risks;
}

function reachesNetwork(command: string): boolean {
  const analysis = analyzeShell(command);
  return analysis.commands.some(({ words }) => {
    const program = (words[0] ?? '').split('/').at(-1) ?? '';
    const verb = words[1] ?? '';
    if (NETWORK_PROGRAMS.has(program)) return true;
    if (program === 'git') return words.slice(1).some((word) => NETWORK_GIT.has(word));
    return NETWORK_INSTALLERS.has(program) && INSTALL_WORDS.has(verb);
  });
}

function within(cwd: string, project: string): boolean {
  const base = project.endsWith(sep) ? project.slice(0, -1) : project;
  return cwd === base || cwd.startsWith(base + sep);
}
