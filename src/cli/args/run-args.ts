// `warden run "prompt"`: the flags of an agent run in this terminal.
import { THREAD_MODES } from '../../store/records.js';
import type { Command } from './command.js';
import { CLAUDE, DATA_DIR, oneOf } from './flags.js';
import { booleanFlag, defineCommand, stringFlag, withDefault } from './parser.js';
import { UsageError } from './usage-error.js';

export const RUN = defineCommand({
  name: 'run',
  synopsis: 'run "prompt"',
  summary: 'Run an agent in this terminal and answer its permission requests',
  positionals: [{ name: '"prompt"', rest: true }],
  flags: {
    cwd: withDefault(
      stringFlag({
        placeholder: 'DIR',
        help: 'working directory of the agent',
        defaultHelp: 'the current directory',
      }),
      () => process.cwd(),
    ),
    mode: withDefault(
      stringFlag({
        placeholder: 'MODE',
        help: THREAD_MODES.join(' | '),
        defaultHelp: 'supervised',
        check: oneOf('mode', THREAD_MODES),
      }),
      () => 'supervised',
    ),
    model: stringFlag({ placeholder: 'NAME', help: 'the model the CLI should use' }),
    agent: withDefault(
      stringFlag({
        placeholder: 'AGENT',
        help: 'claude | codex (the Codex app-server; its config from CODEX_HOME)',
        defaultHelp: 'claude',
        check: oneOf('agent', ['claude', 'codex']),
      }),
      () => 'claude',
    ),
    yes: booleanFlag({ short: 'y', help: 'allow every permission request (for pipes and scripts)' }),
    deny: booleanFlag({ help: 'deny every permission request' }),
    ask: booleanFlag({ help: 'ask on stdin even when it is not a terminal (one answer per line)' }),
    demo: booleanFlag({
      help:
        "try it offline: the demo's scripted model in a temporary directory (the prompt is optional; " +
        "the demo's own is used without one)",
    }),
    'data-dir': DATA_DIR,
    claude: CLAUDE,
  },
  notes:
    'With a warden serve running on the data dir, the thread is created in that server: its approvals ' +
    'can be answered here or in the browser',
  build({ values, positionals, given }): Command {
    const prompt = positionals.join(' ').trim();
    const demo = values.demo === true;
    if (prompt === '' && !demo) throw new UsageError('warden run needs a prompt: warden run "what to do"');
    if (demo)
      for (const key of ['cwd', 'data-dir', 'model'] as const)
        if (given.has(key))
          throw new UsageError(
            `--${key} does not apply to warden run --demo (it runs in a temporary directory)`,
          );
    if (demo && values.agent === 'codex')
      throw new UsageError(
        "--agent codex does not apply to warden run --demo (the demo's model speaks to Claude Code)",
      );
    if (values.yes === true && values.deny === true) throw new UsageError('Pass --yes or --deny, not both');
    return {
      name: 'run',
      prompt,
      cwd: values.cwd,
      mode: values.mode,
      ...(values.model === undefined ? {} : { model: values.model }),
      ...(values.agent === 'codex' ? { agent: 'codex' as const } : {}),
      policy:
        values.yes === true ? 'yes' : values.deny === true ? 'deny' : values.ask === true ? 'ask' : 'auto',
      ...(demo ? { demo } : {}),
      ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
      ...(values.claude === undefined ? {} : { claude: values.claude }),
    };
  },
});
