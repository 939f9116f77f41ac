// What "always allow" adds, worked out once when the approval is made, so that what a person is shown is
// exactly what the CLI gets; a person may narrow them and pick how long they hold (grants.ts: a settings
// file, which bypasses Warden in every later session of the project, only when a person chose that).
// A rule is never wider than the request: the exact path for file tools, the exact command (or the
// command's own prefix, when the CLI suggests that) for Bash, nothing at all for other tools. The CLI's
// suggestions are only read, never echoed: they can be wider (`Read(//etc/**)` for one file) or
// persistent (`localSettings`), and can switch the session's mode (`setMode`).
//
// Paths are offered as the agent wrote them (`cat /etc/os-release` → `Read(//etc/os-release)`), and, when
// that path is a symlink, also where it leads now (`Read(//usr/lib/os-release)`). Both are needed, and the
// second is what keeps the first safe. The CLI (2.1.332, checked against the real binary) judges a Bash
// command's read by the resolved path only, and a Read call by both the path as written and the resolved
// one; Warden's rules (rules.ts) allow a path only when the path as written and its real path are each
// covered. So a rule on the typed path alone never follows the link anywhere: neither the CLI nor Warden
// would ever let it allow a read — and if the link is later pointed at another file, the pinned target no
// longer matches and the agent asks again (the CLI asks again too: its check is on the new target).
import { isAbsolute, resolve } from 'node:path';

import { realOfNearestExisting } from './real-paths.js';
import { analyzeShell } from './shell-commands.js';

export interface AlwaysAllowRequest {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** The thread's directory: relative paths in the input are resolved against it, as the CLI does. */
  readonly cwd: string;
  /** The path the CLI's own check stopped at, if it said. */
  readonly blockedPath: string | null;
  readonly suggestions: readonly unknown[];
}

/** File tools and the input field that names their file. */
const PATH_FIELDS: Readonly<Record<string, string>> = {
  Read: 'file_path',
  Edit: 'file_path',
  Write: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

/**
 * Characters a path may have to become an exact rule. The CLI matches path rules as gitignore-style
 * patterns, where `*`, `?`, `[`, `\`, `!` and `#` mean more than themselves; a path with any other
 * character than these is offered no rule rather than a rule that could match other files.
 */
const PLAIN_PATH = /^\/[\p{L}\p{N}._\-/+@%,=:~ ]*[^ ]$/u;

/** A Bash command that is one simple command with literal words: no operators, expansions or globs. */
const PLAIN_COMMAND = /^[\p{L}\p{N}._\-/+@%,=: '"]+$/u;

/** A prefix the CLI suggests: plain words only (no quotes, which would make word boundaries unclear). */
const PLAIN_PREFIX = /^[\p{L}\p{N}._\-/+@%,=: ]+$/u;

/**
 * Commands whose prefix says nothing about what runs: an interpreter or a wrapper runs whatever its
 * arguments say, so `bash -c:*` or `env:*` would allow anything. Only their exact command is offered.
 */
const OPAQUE_PREFIXES = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'fish',
  'ksh',
  'env',
  'exec',
  'command',
  'builtin',
  'eval',
  'xargs',
  'sudo',
  'doas',
  'su',
  'nohup',
  'nice',
  'ionice',
  'time',
  'timeout',
  'stdbuf',
  'setsid',
  'chroot',
  'watch',
  'find',
  'python',
  'python3',
  'node',
  'deno',
  'bun',
  'perl',
  'ruby',
  'php',
  'lua',
  'awk',
  'npx',
  'bunx',
  'pnpx',
  'ssh',
  'docker',
  'kubectl',
  'make',
]);

/** The rules an `allow_always` would add, as `Tool(content)`; empty when none is narrow enough. */
export function alwaysAllowRules(request: AlwaysAllowRequest): string[] {
  const { toolName, input } = request;
  const field = Object.hasOwn(PATH_FIELDS, toolName) ? PATH_FIELDS[toolName] : undefined;
  if (field !== undefined) return pathRules(toolName, input[field], request);
  if (toolName === 'Bash') return bashRules(input.command, request);
  return [];
}

/** `Read(//etc/hostname)` → `{ toolName: 'Read', ruleContent: '//etc/hostname' }`; a bare tool name has no content. */
export function parseRule(rule: string): { toolName: string; ruleContent?: string } {
  const open = rule.indexOf('(');
  if (open === -1) return { toolName: rule };
  return { toolName: rule.slice(0, open), ruleContent: rule.slice(open + 1, -1) };
}

/** The CLI spells an absolute path in a rule with a leading `//`. */
function exactPathRule(toolName: string, path: string): string | undefined {
  return PLAIN_PATH.test(path) ? `${toolName}(/${path})` : undefined;
}

function pathRules(toolName: string, value: unknown, request: AlwaysAllowRequest): string[] {
  if (typeof value !== 'string' || value === '') return [];
  const path = isAbsolute(value) ? resolve(value) : resolve(request.cwd, value);
  // The path as written, then where it leads (a symlink's target, pinned), then the path the CLI says
  // it stopped at if that is yet another: each exactly, nothing around it.
  const blocked = request.blockedPath;
  const paths = [path, realOfNearestExisting(path)];
  if (blocked !== null && isAbsolute(blocked)) paths.push(resolve(blocked));
  return exactPathRules(toolName, paths);
}

function bashRules(value: unknown, request: AlwaysAllowRequest): string[] {
  if (typeof value !== 'string') return [];
  const command = value.trim();
  if (command === '' || command.includes('*') || !PLAIN_COMMAND.test(command)) return [];
  const rules = [`Bash(${narrowestBashRule(command, suggestedRules(request.suggestions, 'Bash'))})`];
  // A command that reads a file outside the allowed directories also needs the CLI's path check
  // satisfied (it suggests a Read rule for the path's directory, and names the resolved path it
  // stopped at): the path as the command names it, and the file it leads to now — nothing more.
  const blocked = request.blockedPath;
  if (blocked !== null && isAbsolute(blocked) && suggestedRules(request.suggestions, 'Read').length > 0) {
    const target = resolve(blocked);
    const typed = typedPathTo(command, target, request.cwd);
    const reads = exactPathRules('Read', typed === undefined ? [target] : [typed, target]);
    if (reads.length === 0) return [];
    rules.push(...reads);
  }
  return rules;
}

/** One exact rule per distinct path, in order; none at all when any path cannot be an exact rule. */
function exactPathRules(toolName: string, paths: readonly string[]): string[] {
  const rules: string[] = [];
  for (const path of new Set(paths)) {
    const rule = exactPathRule(toolName, path);
    if (rule === undefined) return [];
    rules.push(rule);
  }
  return rules;
}

/** The path a word of the command names (resolved against the cwd, as written) that leads to `target`. */
function typedPathTo(command: string, target: string, cwd: string): string | undefined {
  for (const simple of analyzeShell(command).commands)
    for (const word of simple.words.slice(1)) {
      if (word === '' || word.startsWith('-')) continue;
      const path = resolve(cwd, word);
      if (path !== target && realOfNearestExisting(path) === target) return path;
    }
  return undefined;
}

/**
 * The CLI's suggested Bash rule when it covers no more than the command's own prefix (`git status:*`
 * or `git status *` for `git status --short`), else the exact command.
 */
function narrowestBashRule(command: string, suggested: readonly string[]): string {
  for (const content of suggested) {
    if (content === command) return content;
    const prefix = content.endsWith(':*') || content.endsWith(' *') ? content.slice(0, -2) : undefined;
    if (prefix === undefined || !PLAIN_PREFIX.test(prefix)) continue;
    const words = prefix.split(' ');
    const first = words[0] ?? '';
    if (words.length < 2 || words.includes('') || first.includes('=') || OPAQUE_PREFIXES.has(first)) continue;
    if (command === prefix || command.startsWith(`${prefix} `)) return content;
  }
  return command;
}

/** The rule contents the CLI suggests allowing for `toolName`, whatever their destination. */
function suggestedRules(suggestions: readonly unknown[], toolName: string): string[] {
  const contents: string[] = [];
  for (const suggestion of suggestions) {
    if (!isRecord(suggestion) || suggestion.type !== 'addRules' || suggestion.behavior !== 'allow') continue;
    if (!Array.isArray(suggestion.rules)) continue;
    for (const rule of suggestion.rules)
      if (isRecord(rule) && rule.toolName === toolName && typeof rule.ruleContent === 'string')
        contents.push(rule.ruleContent);
  }
  return contents;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
