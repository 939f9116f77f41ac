// The one argument parser of the `warden` command. Each command declares its flags (type, value
// placeholder, help, default, how a value is checked) and its positionals; `parseCommandLine` reads argv
// against every declaration at once, so the errors are the same for every command, each one line: a flag
// no command has is "Unknown option '--x'", a missing value "--port needs a value: --port N", a value
// given to a switch "--json takes no value", a flag of another command "--x does not apply to 'warden
// c'", an extra positional "Unexpected argument 'y'", and a bad value the flag's own message. node:util's
// own messages (several lines, with advice about `--`) are not shown. The usage text is rendered from the
// same declarations (usage.ts).
import { parseArgs } from 'node:util';

import { UsageError } from './usage-error.js';

type Raw = string | boolean | (string | boolean)[];

export interface FlagSpec<V> {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Repeatable: every value, in order. */
  readonly multiple?: boolean;
  /** The value's name in the help (`--port N`). */
  readonly placeholder?: string;
  readonly help: string;
  /** What the help says after "(default: …)"; absent, the help says nothing of a default. */
  readonly defaultHelp?: string;
  /** Listed once under "Common options" instead of under each command that takes it. */
  readonly common?: boolean;
  /** The value when the flag is not given. */
  readonly default?: () => V;
  /** The typed value; throws a UsageError that says what is wrong with the text. */
  readonly convert: (raw: Raw) => V;
}

export type FlagSpecs = Record<string, FlagSpec<unknown>>;

type ValueOf<S> = S extends { readonly convert: (raw: never) => infer V } ? V : never;
type HasDefault<S> = S extends { readonly default: () => unknown } ? true : false;

/** A command's flag values: those with a default always present, the others only when given. */
export type FlagValues<F extends FlagSpecs> = {
  [K in keyof F as HasDefault<F[K]> extends true ? K : never]: ValueOf<F[K]>;
} & { [K in keyof F as HasDefault<F[K]> extends true ? never : K]?: ValueOf<F[K]> };

/** A string flag; `check` turns its text into the value or throws a UsageError. */
export function stringFlag<V = string>(
  spec: Omit<FlagSpec<V>, 'type' | 'convert' | 'multiple' | 'default'> & { check?: (text: string) => V },
): NoInfer<FlagSpec<V>> {
  const { check, ...rest } = spec;
  return { ...rest, type: 'string', convert: (raw) => (check ? check(String(raw)) : (raw as V)) };
}

/** A repeatable string flag: every value in order, each checked by `check`. */
export function stringsFlag<V = string>(
  spec: Omit<FlagSpec<V[]>, 'type' | 'convert' | 'multiple' | 'default'> & { check?: (text: string) => V },
): NoInfer<FlagSpec<V[]>> {
  const { check, ...rest } = spec;
  return {
    ...rest,
    type: 'string',
    multiple: true,
    convert: (raw) => (raw as string[]).map((text) => (check ? check(text) : (text as V))),
  };
}

/** `flag`, with the value it has when it is not given (the values then always have it). */
export function withDefault<V>(
  flag: FlagSpec<V>,
  value: NoInfer<() => V>,
): NoInfer<FlagSpec<V> & { readonly default: () => V }> {
  return { ...flag, default: value };
}

export function booleanFlag(
  spec: Omit<FlagSpec<true>, 'type' | 'convert' | 'multiple' | 'default'>,
): FlagSpec<true> {
  return { ...spec, type: 'boolean', convert: () => true };
}

export interface Positional {
  /** Its name in the help: `"prompt"`, `APPROVAL-ID`. */
  readonly name: string;
  /** Takes every positional from here on (`warden run` joins the words of its prompt). */
  readonly rest?: boolean;
}

/** The option tokens in argv order, for flags whose meaning depends on the one before them. */
export type OptionToken = { readonly name: string; readonly value: string | undefined };

export interface ParsedLine<F extends FlagSpecs> {
  readonly values: FlagValues<F>;
  readonly positionals: readonly string[];
  /** The flags the line gave (a default does not count). */
  readonly given: ReadonlySet<keyof F & string>;
  readonly options: readonly OptionToken[];
}

export interface CommandSpec<F extends FlagSpecs, C> {
  readonly name: string;
  /** How it is called, after `warden `: `run "prompt"`. */
  readonly synopsis: string;
  readonly summary: string;
  readonly flags: F;
  readonly positionals: readonly Positional[];
  /** Other ways of calling it, listed with the flags. */
  readonly forms?: readonly { readonly synopsis: string; readonly help: string }[];
  /** Said after the flags. */
  readonly notes?: string;
  /** The command from what the line gave; throws a UsageError for combinations that cannot run. */
  readonly build: (line: ParsedLine<F>) => C;
}

/** A command's declaration with its types erased, so the commands fit in one table. */
export interface CommandDefinition<C> {
  readonly name: string;
  readonly synopsis: string;
  readonly summary: string;
  readonly flags: FlagSpecs;
  readonly positionals: readonly Positional[];
  readonly forms: readonly { readonly synopsis: string; readonly help: string }[];
  readonly notes: string | undefined;
  readonly build: (line: ParsedLine<FlagSpecs>) => C;
}

export function defineCommand<F extends FlagSpecs, C>(spec: CommandSpec<F, C>): CommandDefinition<C> {
  return {
    ...spec,
    forms: spec.forms ?? [],
    notes: spec.notes,
    build: spec.build as unknown as (line: ParsedLine<FlagSpecs>) => C,
  };
}

export const HELP_FLAG = booleanFlag({ short: 'h', help: 'this text' });
export const VERSION_FLAG = booleanFlag({ help: 'the version' });

export type LineResult<C> = { name: 'help' } | { name: 'version' } | C;

/** argv (without node and the script) as the command it names; a UsageError when it names none. */
export function parseCommandLine<C>(
  commands: readonly CommandDefinition<C>[],
  argv: readonly string[],
): LineResult<C> {
  const options = allOptions(commands);
  let parsed;
  try {
    const wrong = malformedOption(commands, argv, options);
    if (wrong !== undefined) throw new UsageError(wrong);
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    const usage = error instanceof UsageError ? error : new UsageError(firstSentence(error));
    usage.command = guessCommand(commands, argv, options);
    throw usage;
  }
  const { values, positionals, tokens } = parsed;
  const [name, ...rest] = positionals;
  if (values.help === true || name === 'help') return { name: 'help' };
  if (values.version === true) return { name: 'version' };
  if (name === undefined) throw new UsageError('No command given');
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) throw new UsageError(`Unknown command '${name}'`);
  try {
    return command.build(readLine(command, values, rest, tokens));
  } catch (error) {
    if (error instanceof UsageError) error.command ??= command.name;
    throw error;
  }
}

function readLine<C>(
  command: CommandDefinition<C>,
  raw: Record<string, Raw | undefined>,
  positionals: readonly string[],
  tokens: readonly { kind: string; name?: string; value?: string | undefined }[],
): ParsedLine<FlagSpecs> {
  for (const key of Object.keys(raw))
    if (!Object.hasOwn(command.flags, key))
      throw new UsageError(`--${key} does not apply to 'warden ${command.name}'`);
  const last = command.positionals.at(-1);
  if (last?.rest !== true && positionals.length > command.positionals.length)
    throw new UsageError(`Unexpected argument '${positionals[command.positionals.length] ?? ''}'`);
  const values: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const [key, spec] of Object.entries(command.flags)) {
    const value = raw[key];
    if (value !== undefined) {
      given.add(key);
      values[key] = spec.convert(value);
    } else if (spec.default !== undefined) values[key] = spec.default();
  }
  const options = tokens.flatMap((token) =>
    token.kind === 'option' && token.name !== undefined ? [{ name: token.name, value: token.value }] : [],
  );
  return { values, positionals, given, options };
}

type NodeOptions = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** Every command's flags as node:util options: a flag means the same in every command that has it. */
function allOptions(commands: readonly CommandDefinition<unknown>[]): NodeOptions {
  const options: NodeOptions = {};
  const add = (key: string, spec: FlagSpec<unknown>, owner: string): void => {
    const option = {
      type: spec.type,
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(spec.multiple === true ? { multiple: true } : {}),
    };
    const known = options[key];
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(option))
      throw new TypeError(`--${key} of 'warden ${owner}' differs from the other commands' --${key}`);
    options[key] = option;
  };
  for (const command of commands)
    for (const [key, spec] of Object.entries(command.flags)) add(key, spec, command.name);
  add('help', HELP_FLAG, 'help');
  add('version', VERSION_FLAG, 'version');
  return options;
}

/**
 * What is wrong with the line's options, in one line, or undefined when node:util will take them: an
 * unknown flag, a flag that needs a value and has none (or only the next flag), a switch given a value.
 */
function malformedOption(
  commands: readonly CommandDefinition<unknown>[],
  argv: readonly string[],
  options: NodeOptions,
): string | undefined {
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    const flag = token.rawName;
    if (spec === undefined) {
      // A prompt may start with a dash: say how to pass one (node:util's advice, in words of this command).
      const prompt = guessCommand(commands, argv, options) === 'run';
      return `Unknown option '${flag}'${prompt ? ` (a prompt that starts with '-' goes after --: warden run -- "${flag} …")` : ''}`;
    }
    if (spec.type === 'boolean') {
      if (token.inlineValue === true) return `${flag} takes no value (got '${flag}=${token.value ?? ''}')`;
      continue;
    }
    const wanted = `${flag} needs a value: ${flag} ${placeholderOf(commands, token.name)}`;
    if (token.value === undefined) return wanted;
    // `--port --host x` or `--port -1`: node:util refuses a value that starts with a dash unless it is
    // written `--port=-1`; say which it looks like.
    if (token.inlineValue !== true && token.value.startsWith('-'))
      return looksLikeOption(token.value, options)
        ? wanted
        : `${wanted} (a value that starts with '-' is written ${flag}=${token.value})`;
  }
  return undefined;
}

/** The value's name in the help, from whichever command declares the flag. */
function placeholderOf(commands: readonly CommandDefinition<unknown>[], key: string): string {
  for (const command of commands) {
    const spec = Object.hasOwn(command.flags, key) ? command.flags[key] : undefined;
    if (spec?.placeholder !== undefined) return spec.placeholder;
  }
  return 'VALUE';
}

function looksLikeOption(text: string, options: NodeOptions): boolean {
  const name = /^--?([^=]+)/.exec(text)?.[1] ?? '';
  return (
    Object.hasOwn(options, name) ||
    Object.values(options).some((option) => option.short === name) ||
    /^--[A-Za-z]/.test(text)
  );
}

/** node:util's message, should it refuse something malformedOption let through: its first sentence. */
function firstSentence(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).replace(/\. .*$/s, '');
}

/** The command a line that did not parse was meant for, so its usage can follow the error. */
function guessCommand(
  commands: readonly CommandDefinition<unknown>[],
  argv: readonly string[],
  options: NodeOptions,
): string | undefined {
  const { positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: false });
  const name = positionals[0];
  return commands.some((command) => command.name === name) ? name : undefined;
}
