// A command or skill the CLI offers (supportedCommands(), the `commands_changed` message), with the official
// Agent SDK's shape. A file of its own: the messages and the Query answers both use it.

export type SlashCommand = {
  name: string;
  description: string;
  argumentHint: string;
  aliases?: string[];
  builtin?: boolean;
};
