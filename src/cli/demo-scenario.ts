// The demo's script for the mock model: the agent launches a background subagent and ends its turn, saying
// that the subagent is still working and will ask in a few seconds. Only after that turn has ended (the
// supervisor's run.ended, passed in as a promise) and a few seconds more — so a person sees the run end
// before anything asks — does the subagent ask to read /etc/hostname and to run `cat /etc/os-release`,
// both outside the working directory, so both wait for a person. When it reports, the CLI runs a turn of
// its own: a few seconds later the agent asks a question and shows a plan (demo-follow-up.ts). The prompts
// read like real work: tracks are chosen by a phrase of the prompt, not a marker.
import { setTimeout as sleep } from 'node:timers/promises';

import { scenario, type MockScript } from '../testing/index.js';
import { followUpSteps } from './demo-follow-up.js';

export const DEMO_PROMPT =
  'Find out which machine this project runs on — its host name and OS release. Check in the background ' +
  'and report back.';
export const DEMO_SUBAGENT = 'Inspect the host';
export const DEMO_SUBAGENT_PROMPT =
  'Read /etc/hostname and /etc/os-release, then report the host name and the OS release in one sentence.';
/** Between the end of the root run and the subagent's first question. */
export const DEMO_PACE_MS = 5000;
/** What the root run says last: the note a person reads while the subagent works. */
export const DEMO_STILL_WORKING =
  'The background agent is still working; it will ask in a few seconds for permission to read two ' +
  'files outside this project. Answer it in the approval inbox.';

export interface DemoPacing {
  /** Resolves when the prompt's run has ended. */
  rootRunEnded: Promise<void>;
  /** Waited after it before the subagent asks, and after the report before the question (default DEMO_PACE_MS). */
  paceMs?: number;
  /** The project folder: where the note is written. */
  cwd: string;
  /** How the person runs `warden` (program-name.ts), for the commands the agent names. */
  program?: string;
}

export function demoScenario({
  rootRunEnded,
  paceMs = DEMO_PACE_MS,
  cwd,
  program = 'warden',
}: DemoPacing): MockScript {
  // One promise for every request of the step: a retried request does not wait again.
  let asks: Promise<void> | undefined;
  const subagentMayAsk = (): Promise<void> =>
    (asks ??= rootRunEnded.then(() => sleep(paceMs, undefined, { ref: false })));
  let follows: Promise<void> | undefined;
  const mayFollowUp = (): Promise<void> => (follows ??= sleep(paceMs, undefined, { ref: false }));
  const builder = scenario()
    .on({ phrase: 'Find out which machine this project runs on' })
    .launchBackgroundAgent(
      { prompt: DEMO_SUBAGENT_PROMPT, description: DEMO_SUBAGENT },
      { text: 'I will have a background agent look at the host, so you can keep working meanwhile.' },
    )
    .thenAnswer(
      `I started a background agent, “${DEMO_SUBAGENT}”, and my turn ends here. ${DEMO_STILL_WORKING}`,
    )
    .onTaskNotification()
    .after(mayFollowUp);
  for (const step of followUpSteps(cwd)) builder.reply(step);
  return builder
    .subagent({ phrase: 'Read /etc/hostname and /etc/os-release' })
    .after(subagentMayAsk)
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
      'This is the Warden demo: a scripted model that only knows the demo scenario. Run ' +
        `\`${program} serve\` with ANTHROPIC_API_KEY set to talk to a real model.`,
    )
    .build();
}
