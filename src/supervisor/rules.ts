// Permission rules: `Tool` or `Tool(pattern)`, in the spirit of Claude Code's own settings syntax.
//
//   Bash(git status:*)   a command that is `git status` or starts with `git status ` (prefix, word-bounded)
//   Bash(npm test)       exactly that command; `*` in a pattern matches any characters
//   Read(/etc/*)         a path glob: `*` stays within one path segment, `**` crosses segments;
//   Edit(src/**)         relative globs are taken from the thread's cwd, paths are resolved first (no `..` tricks)
//   WebFetch(domain:example.com)   the URL's host is that domain or a subdomain of it
//   mcp__github__*       a tool-name glob with no pattern: any call of those tools
//
// Compound shell commands (`a && b`, `a; b`, pipes, substitutions, redirections) never match an allow
// rule, and match a deny rule when any of their parts does: a prefix must not smuggle a second command.
import { isAbsolute, resolve } from 'node:path';

import { ValidationError } from '../protocol/errors.js';

export interface CompiledRule {
  readonly source: string;
  readonly tool: RegExp;
  /** Undefined: the rule covers every call of the tool. */
  readonly pattern: string | undefined;
}

const RULE = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s;
const PATH_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'LS']);
/** Anything that could run a second command or write somewhere: such a command never matches an allow rule. */
const SHELL_CHAINING = /[;&|`<>\n]|\$\(/;

export function compileRule(source: unknown, field = 'rule'): CompiledRule {
  if (typeof source !== 'string') throw new ValidationError(`${field} must be a string`, field);
  const match = RULE.exec(source.trim());
  if (match === null)
    throw new ValidationError(`${field} ${JSON.stringify(source)} is not Tool or Tool(pattern)`, field);
  const pattern = match[2];
  if (pattern !== undefined && pattern.trim() === '')
    throw new ValidationError(`${field} ${JSON.stringify(source)} has an empty pattern`, field);
  return { source, tool: globToRegExp(match[1] ?? '', 'name'), pattern };
}

/** Does `rule` cover this call? `effect` matters for compound shell commands (see the header). */
export function ruleMatches(
  rule: CompiledRule,
  toolName: string,
  input: Record<string, unknown>,
  cwd: string,
  effect: 'allow' | 'deny',
): boolean {
  if (!rule.tool.test(toolName)) return false;
  const pattern = rule.pattern;
  if (pattern === undefined) return true;
  if (toolName === 'Bash') return matchCommand(pattern, stringField(input, 'command'), effect);
  if (toolName === 'WebFetch' && pattern.startsWith('domain:'))
    return matchDomain(pattern.slice('domain:'.length), stringField(input, 'url'));
  const path =
    stringField(input, 'file_path') ?? stringField(input, 'notebook_path') ?? stringField(input, 'path');
  if (PATH_TOOLS.has(toolName) || path !== undefined) return matchPath(pattern, path, cwd);
  const subject = stringField(input, 'command') ?? stringField(input, 'url') ?? stringField(input, 'pattern');
  return subject !== undefined && globToRegExp(pattern, 'text').test(subject);
}

function matchCommand(pattern: string, command: string | undefined, effect: 'allow' | 'deny'): boolean {
  if (command === undefined) return false;
  const whole = command.trim();
  if (effect === 'allow') return !SHELL_CHAINING.test(whole) && matchOneCommand(pattern, whole);
  const parts = whole.split(/[;&|`\n()]|\$\(/).map((part) => part.trim());
  return [whole, ...parts].some((part) => part !== '' && matchOneCommand(pattern, part));
}

function matchOneCommand(pattern: string, command: string): boolean {
  if (pattern.endsWith(':*')) {
    const prefix = pattern.slice(0, -2).trim();
    return command === prefix || command.startsWith(`${prefix} `) || command.startsWith(`${prefix}\t`);
  }
  return globToRegExp(pattern, 'text').test(command);
}

function matchDomain(domain: string, url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    const host = new URL(url).hostname.toLowerCase();
    const wanted = domain.trim().toLowerCase();
    return host === wanted || host.endsWith(`.${wanted}`);
  } catch {
    return false;
  }
}

function matchPath(pattern: string, path: string | undefined, cwd: string): boolean {
  if (path === undefined) return false;
  // Claude Code writes absolute paths in rules as `//etc/*`; accept both spellings.
  const glob = pattern.startsWith('//') ? pattern.slice(1) : pattern;
  const absoluteGlob = isAbsolute(glob) ? glob : `${cwd.replace(/\/+$/, '')}/${glob}`;
  return globToRegExp(absoluteGlob, 'path').test(resolve(cwd, path));
}

/** `*` and `**` to a RegExp. In paths `*` stops at `/`; in names and texts it matches anything. */
function globToRegExp(glob: string, kind: 'name' | 'text' | 'path'): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? '';
    if (char === '*') {
      const double = glob[i + 1] === '*';
      if (double) i++;
      if (kind !== 'path' || double) {
        // `/**/` also matches a single `/`.
        if (kind === 'path' && glob[i + 1] === '/') {
          out += '(?:.*/)?';
          i++;
        } else out += '.*';
      } else out += '[^/]*';
    } else out += char.replace(/[\\^$.|?+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}

function stringField(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}
