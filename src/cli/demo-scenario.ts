// The demo's script for the mock model: the agent launches a background subagent and ends its turn; only
// after that turn has ended (the supervisor's run.ended, passed in as a promise — not a timer) does the
// subagent ask to read /etc/hostname and to run `cat /etc/os-release`, both outside the working directory,
// so both wait for a person in the approval inbox. When it reports, the CLI runs a turn of its own.
import { scenario, type MockScript } from '../testing/index.js';

export const DEMO_PROMPT = '[[demo]] Find out which machine this is. Do it in the background.';
export const DEMO_SUBAGENT = 'Inspect the host';

export function demoScenario(rootRunEnded: Promise<void>): MockScript {
  return scenario()
    .on('demo')
    .launchBackgroundAgent({
      prompt: '[[inspect]] Read the host name and the OS release, then report.',
      description: DEMO_SUBAGENT,
    })
    .thenAnswer(
      'I started a background agent to inspect the host. It will ask to read two files outside this ' +
        'project; answer it in the approval inbox.',
    )
    .onTaskNotification()
    .thenAnswer((ctx) =>
      /<status>completed<\/status>/.test(ctx.lastUserText)
        ? 'The background agent has reported back: see its summary above.'
        : 'The background agent did not finish; nothing more to do.',
    )
    .subagent('inspect')
    .after(rootRunEnded)
    .callTool('Read', { file_path: '/etc/hostname' }, { text: 'First, the host name.' })
    .callTool(
      'Bash',
      { command: 'cat /etc/os-release', description: 'Show the OS release' },
      { text: 'Now the OS release.' },
    )
    .thenReport((ctx) => {
      const result = ctx.toolResults[0];
      const name = /PRETTY_NAME="?([^"\n]+)/.exec(result?.text ?? '')?.[1];
      if (result === undefined || result.isError)
        return 'Done, but I was not allowed to read the OS release.';
      return `Done. This machine runs ${name ?? 'an unknown OS'}.`;
    })
    .on()
    .thenAnswer(
      'This is the Warden demo: a scripted model that only knows the demo scenario. Run `warden serve` ' +
        'with ANTHROPIC_API_KEY set to talk to a real model.',
    )
    .build();
}
