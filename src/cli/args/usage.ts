// The usage text, rendered from the commands' declarations (parser.ts): `warden --help` prints all of it,
// a usage error the part of the command it was about. docs/cli.md says the same at more length.
import { HELP_FLAG, VERSION_FLAG, type CommandDefinition, type FlagSpec } from './parser.js';

const WIDTH = 108;
/** Where a command's summary starts, and where its flags' help starts. */
const SUMMARY_AT = 17;
const FLAG_AT = 6;
const FLAG_HELP_AT = 25;
const COMMON_HELP_AT = 19;

export const EXIT_CODES = 'Exit codes: 0 done, 1 the run failed, 2 usage error, 130 interrupted (Ctrl-C).';

/** The whole text: every command, the common options, the exit codes. */
export function usageText(commands: readonly CommandDefinition<unknown>[]): string {
  return [
    'Usage: warden <command> [options]',
    '',
    'Commands:',
    ...commands.flatMap(commandLines),
    '',
    'Common options:',
    ...commonLines(commands),
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

/** One command's part, for the usage error it was about. */
export function commandUsage(command: CommandDefinition<unknown>): string {
  return [
    `Usage: warden ${command.synopsis} [options]`,
    '',
    ...commandLines(command),
    '',
    'Common options (warden --help for all commands):',
    ...commonLines([command]),
    '',
  ].join('\n');
}

function commandLines(command: CommandDefinition<unknown>): string[] {
  const lines = entry(`  ${command.synopsis}`, command.summary, SUMMARY_AT);
  for (const form of command.forms)
    lines.push(...entry(' '.repeat(FLAG_AT) + form.synopsis, form.help, FLAG_HELP_AT));
  for (const [key, spec] of Object.entries(command.flags))
    if (spec.common !== true)
      lines.push(...entry(' '.repeat(FLAG_AT) + label(key, spec), flagHelp(spec), FLAG_HELP_AT));
  if (command.notes !== undefined) lines.push(...wrap(command.notes, SUMMARY_AT));
  return lines;
}

/** The flags marked common, once each, in the order the commands declare them; then --help and --version. */
function commonLines(commands: readonly CommandDefinition<unknown>[]): string[] {
  const common = new Map<string, FlagSpec<unknown>>();
  for (const command of commands)
    for (const [key, spec] of Object.entries(command.flags)) if (spec.common === true) common.set(key, spec);
  common.set('help', HELP_FLAG);
  common.set('version', VERSION_FLAG);
  return [...common].flatMap(([key, spec]) => entry(`  ${label(key, spec)}`, flagHelp(spec), COMMON_HELP_AT));
}

function label(key: string, spec: FlagSpec<unknown>): string {
  const long = `--${key}${spec.placeholder === undefined ? '' : ` ${spec.placeholder}`}`;
  return spec.short === undefined ? long : `${long}, -${spec.short}`;
}

function flagHelp(spec: FlagSpec<unknown>): string {
  return spec.defaultHelp === undefined ? spec.help : `${spec.help} (default: ${spec.defaultHelp})`;
}

/** `head` with `text` beside it from column `at` (below it when `head` reaches that far), wrapped. */
function entry(head: string, text: string, at: number): string[] {
  if (text === '') return [head];
  if (head.length >= at) return [head, ...wrap(text, at)];
  const [first = '', ...more] = wrap(text, at);
  return [`${head.padEnd(at)}${first.trimStart()}`, ...more];
}

/** The words of `text` in lines indented by `indent`, none past WIDTH. */
function wrap(text: string, indent: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(' '.repeat(indent) + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(' '.repeat(indent) + line);
  return lines;
}
