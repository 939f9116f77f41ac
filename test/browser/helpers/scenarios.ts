// Mock-model scripts for the browser tests. Each routes on markers only (never on arrival order), and
// a step that must come after something the test observes waits for it with after().
import { followUpSteps } from '../../../src/cli/demo-follow-up.js';
import { scenario } from '../../../src/testing/index.js';

export const DEMO_PROMPT = '[[bg]] Check this machine in the background';
export const SUBAGENT_DESCRIPTION = 'Inspect host';
export const SUBAGENT_READ = { file_path: '/etc/hostname' };

export const EDIT_PROMPT = '[[edit]] Update the status in NOTES.md';
export const NOTES = '# Notes\n\n## Status\nThe inbox is a prototype.\nNothing is tested yet.\n';
export const NOTES_EDIT = {
  old_string: '## Status\nThe inbox is a prototype.\nNothing is tested yet.',
  new_string:
    '## Status\nThe inbox works on laptops and phones.\nNothing is tested yet.\nBrowser tests run in Chromium.',
};

/**
 * The demo: the root turn launches a background subagent and ends; only then (`rootEnded`) does the
 * subagent ask to read a file outside the project. Once it reports, the CLI starts a turn of its own —
 * with `followUpAfter`, once that has resolved, the real demo's second act (src/cli/demo-follow-up.ts:
 * a question, a plan, the note written in `cwd`); without it, one sentence.
 * A second conversation (`[[edit]]`) reads NOTES.md in `cwd`, then asks to edit it.
 */
export function demoScript(
  rootEnded: Promise<void>,
  cwd = '/nonexistent',
  { followUpAfter }: { followUpAfter?: Promise<void> } = {},
) {
  const notes = `${cwd}/NOTES.md`;
  const builder = scenario()
    .on('edit')
    .callTool('Read', { file_path: notes })
    .callTool('Edit', { file_path: notes, ...NOTES_EDIT })
    .thenAnswer('The status is updated.')
    .on('bg')
    .launchBackgroundAgent({ prompt: '[[sub]] Read the host name', description: SUBAGENT_DESCRIPTION })
    .thenAnswer('I started a background agent to inspect the host.')
    .onTaskNotification();
  if (followUpAfter === undefined)
    builder.thenAnswer('The background agent reported back: the host is inspected.');
  else {
    builder.after(followUpAfter);
    for (const step of followUpSteps(cwd)) builder.reply(step);
  }
  return builder
    .subagent('sub')
    .after(rootEnded)
    .callTool('Read', SUBAGENT_READ)
    .thenReport('Host inspected.')
    .build();
}

/** Main-agent turns that each write a file in the project (which asks), then say what came back. */
export function writeScript(markers: readonly string[]) {
  let builder = scenario();
  for (const marker of markers)
    builder = builder
      .on(marker)
      .callTool('Bash', { command: `touch ${marker}.txt`, description: `Create ${marker}.txt` })
      .thenAnswer((ctx) => `Tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`);
  return builder.build();
}
