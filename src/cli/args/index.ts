// The command line: which command, which flags. Every command is declared once (its flags, positionals,
// help and checks) and read by the one parser (parser.ts); anything malformed is a UsageError (exit code
// 2) that says what was wrong, followed by that command's usage. The usage text is rendered from the same
// declarations; docs/cli.md says the same at more length.
import type { Command } from './command.js';
import { AUDIT, HOSTS, LOGIN, STATUS, TOKEN } from './admin-args.js';
import { AGENTS } from './agents-args.js';
import { HOOK } from './hook-args.js';
import { INBOX } from './inbox-args.js';
import { POLICY } from './policy-args.js';
import { parseCommandLine, type CommandDefinition } from './parser.js';
import { RUN } from './run-args.js';
import { DEMO, SERVE } from './serve-args.js';
import { commandUsage, usageText } from './usage.js';

export type { Command, CommandOf, ServerFlags } from './command.js';
export { UsageError } from './usage-error.js';

/** In the order `warden --help` lists them. */
const COMMANDS: readonly CommandDefinition<Command>[] = [
  RUN,
  SERVE,
  LOGIN,
  INBOX,
  STATUS,
  AGENTS,
  TOKEN,
  HOOK,
  HOSTS,
  AUDIT,
  POLICY,
  DEMO,
];

export const USAGE = usageText(COMMANDS);

export function parseCommand(argv: readonly string[]): Command {
  return parseCommandLine(COMMANDS, argv);
}

/** What follows a usage error: the usage of the command it was about, else the whole text. */
export function usageFor(commandName: string | undefined): string {
  const command = COMMANDS.find((candidate) => candidate.name === commandName);
  return command === undefined ? USAGE : commandUsage(command);
}
