// Permission rules: `Tool` or `Tool(pattern)`, in the spirit of Claude Code's own settings syntax.
//
//   Bash(git status:*)   a command that is `git status` or starts with `git status ` (prefix, word-bounded)
//   Bash(npm test)       exactly that command; `*` in a pattern matches any characters
//   Read(/etc/*)         a path glob: `*` stays within one path segment, `**` crosses segments;
//   Edit(src/**)         relative globs are taken from the thread's cwd, paths are resolved first (no `..` tricks)
//   WebFetch(domain:example.com)   the URL's host is that domain or a subdomain of it
//   mcp__github__*       a tool-name glob with no pattern: any call of those tools
//
// Bash patterns are matched against the simple commands of a real parse (shell-commands.ts), never the
// raw text alone. A deny rule matches when ANY simple command does — through wrappers (`sudo rm`),
// leading assignments (`X=1 rm`) and paths to the program (`/bin/rm` and `./rm` are `rm`). An allow rule
// matches only when EVERY simple command does, each as written, and the command has nothing else that
// runs or writes (substitutions, redirections to files, assignments, words only known when it runs) and
// nothing the parse cannot see through (eval, a variable as the program, parse errors). A deny rule that
// could match a command once its words only known when it runs are (`git $X` for `Bash(git push:*)`)
// cannot be checked: `couldMatchWhenRun` says so, and the policy asks (order.ts).
//
// Path patterns are matched on the path as written (resolved against the cwd) and on its real path
// (symlinks followed; for a new file, its nearest existing parent's): a deny rule matches when either
// does; an allow needs both covered — by one rule, or by two (`Read(//etc/os-release)` and
// `Read(//usr/lib/os-release)`, the link and the file it leads to, as always-allow offers them). Either
// way every path the call touches is named by an allow rule, so a link cannot carry it elsewhere.
import { basename, dirname, isAbsolute } from 'node:path';

import { ValidationError } from '../protocol/errors.js';
import { canStartWith, globTokens, literalTokens, type GlobTokens } from './glob-prefix.js';
import { lexicalAndReal, realOfNearestExisting } from './real-paths.js';
import { analyzeShell, type ShellAnalysis, type SimpleCommand } from './shell-commands.js';
import { rememberedBy } from './pure-memo.js';

export interface CompiledRule {
  readonly source: string;
  readonly tool: RegExp;
  /** Undefined: the rule covers every call of the tool. */
  readonly pattern: string | undefined;
}

const RULE = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s;
const PATH_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'LS']);

export function compileRule(source: unknown, field = 'rule'): CompiledRule {
  if (typeof source !== 'string') throw new ValidationError(`${field} must be a string`, field);
  // A rule is compiled once: every policy that holds it (each thread's, each simulated one) shares it.
  return compiledRule(source) ?? parseRule(source, field);
}

/** The compiled rule of a valid source; undefined for one that is not (parseRule says why). */
const compiledRule = rememberedBy((source: string): CompiledRule | undefined => {
  try {
    return parseRule(source, 'rule');
  } catch {
    return undefined;
  }
});

function parseRule(source: string, field: string): CompiledRule {
  const match = RULE.exec(source.trim());
  if (match === null)
    throw new ValidationError(`${field} ${JSON.stringify(source)} is not Tool or Tool(pattern)`, field);
  const pattern = match[2];
  if (pattern !== undefined && pattern.trim() === '')
    throw new ValidationError(`${field} ${JSON.stringify(source)} has an empty pattern`, field);
  return { source, tool: globToRegExp(match[1] ?? '', 'name'), pattern };
}

/** Does `rule` cover this call? `effect` matters for shell commands and paths (see the header). */
export function ruleMatches(
  rule: CompiledRule,
  toolName: string,
  input: Record<string, unknown>,
  cwd: string,
  effect: 'allow' | 'deny',
  shell?: ShellAnalysis,
): boolean {
  if (!rule.tool.test(toolName)) return false;
  const pattern = rule.pattern;
  if (pattern === undefined) return true;
  if (toolName === 'Bash') {
    const command = stringField(input, 'command');
    if (command === undefined) return false;
    const analysis = shell ?? analyzeShell(command);
    if (effect === 'deny')
      return (
        analysis.commands.some((simple) => commandMatches(rule, simple, 'deny')) ||
        matchOneCommand(pattern, command.trim())
      );
    return (
      shellAllowable(analysis) === undefined &&
      analysis.commands.every((simple) => commandMatches(rule, simple, 'allow'))
    );
  }
  if (toolName === 'WebFetch' && pattern.startsWith('domain:'))
    return matchDomain(pattern.slice('domain:'.length), stringField(input, 'url'));
  const path = pathOf(input);
  if (PATH_TOOLS.has(toolName) || path !== undefined) {
    const hits = pathHits(pattern, path, cwd);
    return effect === 'allow' ? hits.lexical && hits.real : hits.lexical || hits.real;
  }
  const subject = stringField(input, 'command') ?? stringField(input, 'url') ?? stringField(input, 'pattern');
  return subject !== undefined && globToRegExp(pattern, 'text').test(subject);
}

/**
 * The allow rule(s) covering a call that is not Bash, as they are named in a verdict: one rule; or, for
 * a path, one rule for the path as written and another for where it really leads (`A, B`).
 */
export function allowingRule(
  rules: readonly CompiledRule[],
  toolName: string,
  input: Record<string, unknown>,
  cwd: string,
): string | undefined {
  const whole = rules.find((rule) => ruleMatches(rule, toolName, input, cwd, 'allow'));
  if (whole !== undefined) return whole.source;
  const ends = rules.flatMap((rule) => {
    const hits = pathEnds(rule, toolName, input, cwd);
    return hits === undefined ? [] : [{ rule, hits }];
  });
  const lexical = ends.find((end) => end.hits.lexical)?.rule;
  const real = ends.find((end) => end.hits.real)?.rule;
  return lexical !== undefined && real !== undefined ? `${lexical.source}, ${real.source}` : undefined;
}

/**
 * Which ends of a file call's path a path rule matches — the path as written, where it really leads —
 * or undefined when the rule or the call is not about a path.
 */
export function pathEnds(
  rule: CompiledRule,
  toolName: string,
  input: Record<string, unknown>,
  cwd: string,
): { lexical: boolean; real: boolean } | undefined {
  const path = pathOf(input);
  if (toolName === 'Bash' || rule.pattern === undefined || !rule.tool.test(toolName)) return undefined;
  if (!PATH_TOOLS.has(toolName) && path === undefined) return undefined;
  return pathHits(rule.pattern, path, cwd);
}

function pathOf(input: Record<string, unknown>): string | undefined {
  return stringField(input, 'file_path') ?? stringField(input, 'notebook_path') ?? stringField(input, 'path');
}

/**
 * Why no allow rule can cover this command, or undefined when rules may: it has at least one simple
 * command, every one known in full, and nothing else that runs or writes.
 */
export function shellAllowable(analysis: ShellAnalysis): string | undefined {
  if (analysis.opaque.length > 0) return analysis.opaque[0];
  if (analysis.effects.length > 0) return analysis.effects[0];
  if (analysis.commands.length === 0) return 'there is no command to run';
  const dynamic = analysis.commands.find((simple) => simple.dynamic);
  if (dynamic !== undefined) return `${dynamic.words.join(' ')} has words only known when it runs`;
  return undefined;
}

/**
 * Does a Bash rule's pattern cover one simple command? For allow, the command as written; for deny, also
 * with the program's directory dropped on both sides (`/bin/rm -f a` is `rm -f a`).
 */
export function commandMatches(rule: CompiledRule, simple: SimpleCommand, effect: 'allow' | 'deny'): boolean {
  if (!rule.tool.test('Bash')) return false;
  const pattern = rule.pattern;
  if (pattern === undefined) return true;
  // Allow compares word by word: a space in the pattern must be a boundary between words, so `'git status'`
  // (one word: a program of that name) and `git 'status --short'` are not `git status`.
  if (effect === 'allow')
    return matchOneCommand(
      pattern.trim().split(/\s+/u).join(WORD_BREAK),
      simple.words.join(WORD_BREAK),
      WORD_BREAK,
    );
  if (matchOneCommand(pattern, simple.words.join(' '))) return true;
  const [program = '', ...rest] = simple.words;
  const barePattern = pattern.trim().replace(/^\S+/u, (first) => basename(first));
  // The program's own options may stand before the words the pattern names next (`git -C . push` is a
  // `git push`): try the command with each run of leading options (and the words they may take) removed.
  for (let skip = 0; skip <= Math.min(rest.length, MAX_SKIPPED_OPTIONS); skip++) {
    if (skip > 0 && !optionLike(rest, skip - 1)) break;
    const bare = [basename(program), ...rest.slice(skip)].join(' ');
    if (matchOneCommand(pattern, bare) || matchOneCommand(barePattern, bare)) return true;
  }
  return false;
}

/**
 * Could a deny rule's pattern match this command once the words only known when it runs are? The known
 * words before the first unknown one (or before the words a wrapper appends) must be the start of a
 * command the pattern matches: `git $X` and `echo push | xargs git` could be `git push`, `git add $f`
 * could not. The same forms as `commandMatches` are tried (the program by name, leading options skipped).
 */
export function couldMatchWhenRun(rule: CompiledRule, simple: SimpleCommand): boolean {
  if (!rule.tool.test('Bash')) return false;
  const pattern = rule.pattern;
  if (pattern === undefined) return true;
  const open = simple.appended || simple.known.includes(false);
  if (!open) return false;
  const words = simple.words.map((word, i) => (simple.known[i] === false ? null : word));
  const [program = '', ...rest] = words;
  const forms: (string | null)[][] = [words];
  for (let skip = 0; skip <= Math.min(rest.length, MAX_SKIPPED_OPTIONS); skip++) {
    if (skip > 0 && !optionLike(simple.words.slice(1), skip - 1)) break;
    forms.push([basename(program ?? ''), ...rest.slice(skip)]);
  }
  const patterns = [pattern, pattern.trim().replace(/^\S+/u, (first) => basename(first))];
  return forms.some((form) => {
    const unknown = form.indexOf(null);
    if (unknown === -1 && !simple.appended) return false;
    const known = (unknown === -1 ? form : form.slice(0, unknown)).join(' ');
    // The rest may be nothing (an empty `$X`), or anything after a space.
    return patterns.some(
      (candidate) =>
        matchOneCommand(candidate, known) ||
        commandLanguage(candidate).some((tokens) => canStartWith(tokens, `${known} `)),
    );
  });
}

/** The commands a Bash pattern matches, as globs: `git push:*` is `git push`, `git push *`, `git push\t*`. */
function commandLanguage(pattern: string): GlobTokens[] {
  if (!pattern.endsWith(':*')) return [globTokens(pattern)];
  const prefix = pattern.slice(0, -2).trim();
  return [
    literalTokens(prefix),
    [...literalTokens(`${prefix} `), null],
    [...literalTokens(`${prefix}\t`), null],
  ];
}

/** How many leading option words a deny rule looks past. */
const MAX_SKIPPED_OPTIONS = 12;

/** Is `words[i]` an option, or the word after one (which may be its argument)? */
function optionLike(words: readonly string[], i: number): boolean {
  return (words[i] ?? '').startsWith('-') || (i > 0 && (words[i - 1] ?? '').startsWith('-'));
}

/** Joins words for allow matching; a NUL cannot be in a word (a command holding one is opaque). */
const WORD_BREAK = '\0';

function matchOneCommand(pattern: string, command: string, separator?: string): boolean {
  if (pattern.endsWith(':*')) {
    let prefix = pattern.slice(0, -2).trim();
    while (separator !== undefined && prefix.endsWith(separator)) prefix = prefix.slice(0, -separator.length);
    if (separator !== undefined) return command === prefix || command.startsWith(`${prefix}${separator}`);
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

/** Whether the glob matches the path as written (resolved against the cwd) and where it really leads. */
function pathHits(
  pattern: string,
  path: string | undefined,
  cwd: string,
): { lexical: boolean; real: boolean } {
  if (path === undefined) return { lexical: false, real: false };
  // Claude Code writes absolute paths in rules as `//etc/*`; accept both spellings.
  const glob = pattern.startsWith('//') ? pattern.slice(1) : pattern;
  const absoluteGlob = isAbsolute(glob) ? glob : `${cwd.replace(/\/+$/, '')}/${glob}`;
  const { lexical, real } = lexicalAndReal(cwd, path);
  const asWritten = globToRegExp(absoluteGlob, 'path');
  return {
    lexical: asWritten.test(lexical),
    real: asWritten.test(real) || globToRegExp(realGlob(absoluteGlob), 'path').test(real),
  };
}

/** The glob with the directory before its first wildcard resolved to where it really leads. */
function realGlob(glob: string): string {
  const star = glob.indexOf('*');
  const literal = star === -1 ? glob : glob.slice(0, star);
  const base = literal.endsWith('/') ? literal.slice(0, -1) : dirname(literal);
  if (base === '' || base === '/' || base === '.') return glob;
  return `${realOfNearestExisting(base)}${glob.slice(base.length)}`;
}

/** `*` and `**` to a RegExp. In paths `*` stops at `/`; in names and texts it matches anything. */
function globToRegExp(glob: string, kind: 'name' | 'text' | 'path'): RegExp {
  return GLOBS[kind](glob);
}

const GLOBS = {
  name: rememberedBy((glob: string) => compileGlob(glob, 'name')),
  text: rememberedBy((glob: string) => compileGlob(glob, 'text')),
  path: rememberedBy((glob: string) => compileGlob(glob, 'path')),
};

function compileGlob(glob: string, kind: 'name' | 'text' | 'path'): RegExp {
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
