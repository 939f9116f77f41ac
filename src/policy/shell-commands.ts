// A Bash command as the policy judges it, from a real parse (unbash): every simple command anywhere in the
// tree — lists, pipelines, if/while/for/case bodies, functions, subshells, groups, command and process
// substitutions inside words, redirection targets and here-documents — and, through wrappers
// (shell-wrappers.ts), the commands they run. What the parse cannot see through is reported, never guessed.
import { forEachChild, parse, type Command, type Redirect, type SyntaxNode, type Word } from 'unbash';

import { innerOf, type Words } from './shell-wrappers.js';
import { writtenByArguments } from './shell-writes.js';

export interface SimpleCommand {
  /** The words as the shell passes them: static values unquoted; the others as written. */
  readonly words: readonly string[];
  /** A word is only known when the shell runs (a variable, a glob, a substitution), or a wrapper adds some. */
  readonly dynamic: boolean;
  /** Per word: is its value known before the command runs? Not for `$x`, `*.ts`, xargs' `%` or find's `{}`. */
  readonly known: readonly boolean[];
  /** A wrapper adds words after these that the parse cannot see (`ls | xargs rm`). */
  readonly appended: boolean;
  /** The wrappers it was found through, outermost first: `['sudo']` for the `rm` of `sudo rm a`. */
  readonly via: readonly string[];
}

export interface ShellAnalysis {
  readonly commands: readonly SimpleCommand[];
  /** What the parse cannot see through: eval, source, a variable as the program, parse errors. */
  readonly opaque: readonly string[];
  /** Besides plain commands, what runs or changes state: substitutions, file writes, assignments. */
  readonly effects: readonly string[];
  /** Files written by redirections or by the command's arguments (shell-writes.ts), static ones only. */
  readonly writes: readonly string[];
}

/** Deeper `sh -c` nesting than this is opaque: it has no honest use and bounds the work. */
const MAX_DEPTH = 6;
/**
 * Bounds on the work one command may cost, each past any honest use: the analysis of hostile input grows
 * faster than its length (every nested substitution is parsed again, every wrapper copies the words), so
 * without them one command could hold the supervisor for minutes or exhaust its memory.
 */
const MAX_SOURCE_LENGTH = 64 * 1024;
const MAX_SUBSTITUTION_NESTING = 32;
const MAX_WRAPPERS = 16;
const NESTING = new Set([
  'CommandExpansion',
  'ArithmeticCommandExpansion',
  'ProcessSubstitution',
  'ArithmeticExpansion',
]);
/** How much of a piece of code an effect quotes. */
const QUOTE_LENGTH = 200;
/** Redirections that only duplicate descriptors or write nowhere. */
const HARMLESS_TARGET = /^(?:\d+|-|\/dev\/(?:null|stdout|stderr|tty|fd\/\d+))$/u;
const WRITING = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

interface Collector {
  /** Substitutions the walk is inside of. */
  nesting: number;
  commands: SimpleCommand[];
  opaque: string[];
  effects: string[];
  writes: string[];
}

/**
 * The analyses of the commands seen last, by their text: one request's command is judged by the policy,
 * its risks (scope.ts), its always-allow rules and perhaps its two-person rule, each asking again. An
 * analysis is a pure function of the text and is given out frozen, so every caller can share it.
 */
const remembered = new Map<string, ShellAnalysis>();
/** Past this many the memory starts again; longer commands (rare, and costly to keep) are not kept. */
const REMEMBERED_COMMANDS = 256;
const REMEMBERED_LENGTH = 4096;

export function analyzeShell(source: string): ShellAnalysis {
  const known = remembered.get(source);
  if (known !== undefined) return known;
  const analysis = frozen(analyze(source));
  if (source.length <= REMEMBERED_LENGTH) {
    if (remembered.size >= REMEMBERED_COMMANDS) remembered.clear();
    remembered.set(source, analysis);
  }
  return analysis;
}

function frozen(analysis: ShellAnalysis): ShellAnalysis {
  for (const command of analysis.commands) {
    Object.freeze(command.words);
    Object.freeze(command.known);
    Object.freeze(command.via);
    Object.freeze(command);
  }
  Object.freeze(analysis.commands);
  Object.freeze(analysis.opaque);
  Object.freeze(analysis.effects);
  Object.freeze(analysis.writes);
  return Object.freeze(analysis);
}

function analyze(source: string): ShellAnalysis {
  const out: Collector = { nesting: 0, commands: [], opaque: [], effects: [], writes: [] };
  if (source.length > MAX_SOURCE_LENGTH) {
    out.opaque.push(`the command is longer than ${MAX_SOURCE_LENGTH} characters`);
    return out;
  }
  // The program receives its command line as C strings: a NUL cuts the command where the parse does not.
  if (source.includes('\0')) out.opaque.push('the command contains a NUL character');
  try {
    analyzeCode(source, out, 0, []);
  } catch {
    // Hostile nesting can exhaust the stack of the parser or the walk: what was found so far stands.
    out.opaque.push('the command is nested too deeply to be checked');
  }
  const { nesting: _, ...analysis } = out;
  return analysis;
}

function analyzeCode(source: string, out: Collector, depth: number, via: readonly string[]): void {
  if (depth > MAX_DEPTH) {
    out.opaque.push('shell code nested too deep');
    return;
  }
  walk(parse(source), out, depth, via);
}

/** The word's value when the parse knows it fully (literals and quotes only), else undefined. */
export function staticValue(word: Word): string | undefined {
  const parts = word.parts;
  if (parts === undefined) return word.value;
  const known = parts.every(
    (part) =>
      part.type === 'Literal' ||
      part.type === 'SingleQuoted' ||
      part.type === 'AnsiCQuoted' ||
      (part.type === 'DoubleQuoted' && part.parts.every((inner) => inner.type === 'Literal')),
  );
  return known ? word.value : undefined;
}

function walk(node: SyntaxNode, out: Collector, depth: number, via: readonly string[]): void {
  if (node.type === 'Script' && node.errors !== undefined && node.errors.length > 0)
    out.opaque.push(`the command does not parse: ${node.errors[0]?.message ?? 'syntax error'}`);
  else if (node.type === 'Command') visitCommand(node, out, depth, via);
  else if (
    node.type === 'CommandExpansion' ||
    node.type === 'ArithmeticCommandExpansion' ||
    node.type === 'ProcessSubstitution'
  ) {
    out.effects.push(`a substitution runs ${quote(node.text)}`);
    if (out.nesting < MAX_SUBSTITUTION_NESTING && node.script === undefined)
      out.opaque.push(`the substitution ${quote(node.text)} does not parse`);
  } else if (node.type === 'Redirect') visitRedirect(node, out);
  else if (node.type === 'HereDoc' && node.body.parts?.some((part) => part.type !== 'Literal') === true)
    out.effects.push('a here-document with expansions');
  else if (node.type === 'HereString' && node.target !== undefined && staticValue(node.target) === undefined)
    out.effects.push(`a here-string with expansions: ${node.target.text}`);
  else if (node.type === 'Function') out.effects.push(`defines the function ${node.name.text}`);
  if (!NESTING.has(node.type)) {
    forEachChild(node, (child) => walk(child, out, depth, via));
    return;
  }
  // Each level of these is parsed again when the walk reaches it: bound the levels, not only the stack.
  if (out.nesting >= MAX_SUBSTITUTION_NESTING) {
    out.opaque.push('substitutions nested too deep');
    return;
  }
  out.nesting++;
  forEachChild(node, (child) => walk(child, out, depth, via));
  out.nesting--;
}

function visitRedirect(node: Redirect, out: Collector): void {
  if (!WRITING.has(node.operator) || node.target === undefined) return;
  const target = staticValue(node.target);
  if (target === undefined) out.effects.push(`writes to ${node.target.text}`);
  else if (!HARMLESS_TARGET.test(target)) {
    out.writes.push(target);
    out.effects.push(`writes to ${target}`);
  }
}

function visitCommand(node: Command, out: Collector, depth: number, via: readonly string[]): void {
  for (const item of node.prefix)
    if (item.type === 'Assignment') out.effects.push(`sets ${item.name} for the command`);
  if (node.name === undefined) {
    if (node.prefix.some((item) => item.type === 'Assignment')) out.effects.push('sets a shell variable');
    return;
  }
  const values: (string | undefined)[] = [staticValue(node.name)];
  const texts: string[] = [node.name.text];
  for (const item of node.suffix) {
    if (item.type === 'Word') {
      values.push(staticValue(item));
      texts.push(item.text);
    } else if (item.type === 'Assignment') {
      // `declare x=1`, `export y=$(…)`: an argument that is itself an assignment.
      const known = item.value.type === 'Word' && staticValue(item.value) !== undefined;
      values.push(known ? item.text : undefined);
      texts.push(item.text);
    }
  }
  for (let i = 0; i < texts.length; i++) texts[i] = values[i] ?? texts[i] ?? '';
  emit(values, texts, false, out, depth, via, stdinCode(node));
}

/** Static shell code given on stdin by a here-document or here-string, for `sh <<'EOF'`. */
function stdinCode(node: Command): string | undefined {
  for (const redirect of node.redirects) {
    if (redirect.type === 'HereDoc' && (redirect.body.parts ?? []).every((part) => part.type === 'Literal'))
      return redirect.body.text;
    if (redirect.type === 'HereString' && redirect.target !== undefined) return staticValue(redirect.target);
  }
  return undefined;
}

/**
 * The words a wrapper runs once it has put what it read in place of `replace` (xargs -I%, find's `{}`):
 * a word holding it is only known then, so it is never static code or a known program.
 */
function filledIn(values: Words, replace: string | undefined): Words {
  if (replace === undefined) return values;
  return values.map((value) => (value === undefined || value.includes(replace) ? undefined : value));
}

function quote(code: string): string {
  return code.length > QUOTE_LENGTH ? `${code.slice(0, QUOTE_LENGTH)}…` : code;
}

function emit(
  values: Words,
  texts: readonly string[],
  appended: boolean,
  out: Collector,
  depth: number,
  via: readonly string[],
  stdin: string | undefined,
): void {
  const program = values[0];
  if (via.length >= MAX_WRAPPERS) {
    out.opaque.push('too many wrappers around one command');
    return;
  }
  if (program === undefined) {
    out.opaque.push(`the program ${texts[0] ?? ''} is only known when the command runs`);
    return;
  }
  const known = values.map((value) => value !== undefined);
  out.commands.push({ words: texts, dynamic: appended || known.includes(false), known, appended, via });
  out.writes.push(...writtenByArguments(values));
  const inner = innerOf(values);
  const nextVia = [...via, program];
  switch (inner.kind) {
    case 'none':
      return;
    case 'command':
      emit(
        filledIn(values.slice(inner.start), inner.replace),
        texts.slice(inner.start),
        appended || inner.appended,
        out,
        depth,
        nextVia,
        undefined,
      );
      return;
    case 'commands':
      for (const [start, end] of inner.ranges)
        emit(
          filledIn(values.slice(start, end), inner.replace),
          texts.slice(start, end),
          appended,
          out,
          depth,
          nextVia,
          undefined,
        );
      return;
    case 'code':
      if (inner.code === undefined) out.opaque.push(`${program} runs shell code only known when it runs`);
      else analyzeCode(inner.code, out, depth + 1, nextVia);
      return;
    case 'stdin':
      if (stdin === undefined) out.opaque.push(`${program} runs shell code from its input`);
      else analyzeCode(stdin, out, depth + 1, nextVia);
      return;
    case 'opaque':
      out.opaque.push(inner.why);
      return;
  }
}
