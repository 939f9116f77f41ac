// Mock-model scripts for the decisions a person makes beyond yes and no: answering the model's questions
// (AskUserQuestion), approving or sending back a plan (ExitPlanMode, in a thread started in plan mode),
// and editing a command before it runs. Each routes on its marker and on the tool round trips of the turn.
import type { MockScript, RequestContext, Reply } from '../../../src/testing/index.js';
import { scenario } from '../../../src/testing/index.js';

export const QUESTIONS = [
  {
    question: 'Which database should the service use?',
    header: 'Database',
    multiSelect: false,
    options: [
      { label: 'PostgreSQL', description: 'One server, shared by every host' },
      { label: 'SQLite', description: 'A file next to the service' },
    ],
  },
  {
    question: 'Which checks should run before a release?',
    header: 'Checks',
    multiSelect: true,
    options: [
      { label: 'Unit tests', description: 'Fast, no network' },
      { label: 'Browser tests', description: 'Chromium, headless' },
      { label: 'Benchmarks', description: 'Compared with the last release' },
    ],
  },
];

export const PLAN = [
  '# Add a health check',
  '',
  '1. Add `GET /healthz` returning **200** and the version.',
  '2. Cover it with a test.',
  '',
  '| Step | Risk |',
  '| --- | --- |',
  '| route | low |',
].join('\n');

/** The command the model asks to run, and the one a person edits it into. */
export const ASKED_COMMAND = 'touch asked.txt && echo the asked command ran';
export const EDITED_COMMAND = 'touch edited.txt && echo the edited command ran';

const PLAN_FILE = /(\/[^"\\\s]*\/\.claude\/plans\/[^"\\\s]+\.md)/;

/** The plan file the CLI named to the model in plan mode (in its system reminder). */
function planFile(ctx: RequestContext): string | undefined {
  return PLAN_FILE.exec(JSON.stringify(ctx.body))?.[1];
}

/**
 * `[[plan]]`: writes the plan to the plan file, asks to leave plan mode; approved, it runs a command
 * (which asks, in the thread's mode) and reports its output; sent back, it reports the feedback it read.
 */
function planTrack(ctx: RequestContext): Reply | null {
  if (ctx.turnRounds === 0) {
    const file = planFile(ctx);
    if (file === undefined) return { content: [{ type: 'text', text: 'no plan file was named' }] };
    return { content: [{ type: 'tool_use', name: 'Write', input: { file_path: file, content: PLAN } }] };
  }
  if (ctx.turnRounds === 1) return { content: [{ type: 'tool_use', name: 'ExitPlanMode', input: {} }] };
  const last = ctx.toolResults[0];
  if (ctx.turnRounds === 2 && last?.isError === true)
    return { content: [{ type: 'text', text: `Plan sent back: ${last.text}` }] };
  if (ctx.turnRounds === 2)
    return {
      content: [
        { type: 'tool_use', name: 'Bash', input: { command: 'touch healthz.txt', description: 'Add route' } },
      ],
    };
  return { content: [{ type: 'text', text: `Built: ${last?.text ?? '(nothing)'}` }] };
}

export function decisionsScript(): MockScript {
  const rest = scenario()
    .on('ask')
    .callTool('AskUserQuestion', { questions: QUESTIONS })
    .thenAnswer((ctx) => `Answers: ${ctx.toolResults[0]?.text ?? '(none)'}`)
    .on('edit')
    .callTool('Bash', { command: ASKED_COMMAND, description: 'Create a file' })
    .thenAnswer((ctx) => `Tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`)
    .on('write')
    .callTool('Write', { file_path: 'notes.md', content: '# Notes\n\nFirst draft.\n' })
    .thenAnswer((ctx) => `Tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`)
    .build();
  return (ctx) => (ctx.kind === 'main' && ctx.turnMarker === 'plan' ? planTrack(ctx) : rest(ctx));
}
