// The demo's second act: the turn the CLI starts by itself once the background agent has reported. A few
// seconds after the report (so a person sees it arrive first), the agent enters plan mode and asks one
// question — where to write down what the background agent found — then shows its plan for that note
// (ExitPlanMode: the plan card), and, once the plan is approved, writes the note (a Write in the project,
// which supervised mode asks about too). A declined question gets the default file; a plan sent back ends
// the turn with nothing written. Each step is chosen by the tool round trips of the turn and reads what it
// needs from the request itself (the answer, the plan file the CLI named), never from earlier requests.
import { join } from 'node:path';

import type { Reply, RequestContext } from '../testing/index.js';

export const DEMO_QUESTION = 'Where should I write down what the background agent found?';
export const DEMO_NOTE_FILES = ['HOST.md', 'NOTES.md'] as const;
const DEFAULT_NOTE = DEMO_NOTE_FILES[0];

/** The AskUserQuestion input of the demo. */
export const DEMO_QUESTIONS = [
  {
    question: DEMO_QUESTION,
    header: 'Note',
    multiSelect: false,
    options: [
      { label: 'HOST.md', description: 'a note of its own in the project folder' },
      { label: 'NOTES.md', description: "the project's notes file" },
    ],
  },
];

/** Where the CLI told the model to write its plan, in plan mode. */
const PLAN_FILE = /(\/[^"\\\s]*\/\.claude\/plans\/[^"\\\s]+\.md)/;
const ANSWERED = /Your questions have been answered: "([^"]*)"="([^"]*)"/;

/** The steps of the CLI's own turn, by round: question, plan file, plan, note, last words. */
export function followUpSteps(cwd: string): ((ctx: RequestContext) => Reply)[] {
  return [
    (ctx) =>
      reported(ctx)
        ? tool('EnterPlanMode', {}, 'The background agent has reported back. Let me plan how to keep this.')
        : text('The background agent did not finish; nothing more to do.'),
    () => tool('AskUserQuestion', { questions: DEMO_QUESTIONS }),
    (ctx) => {
      const file = PLAN_FILE.exec(JSON.stringify(ctx.body))?.[1];
      if (file === undefined) return text('The CLI named no plan file, so there is no plan to show.');
      return tool('Write', { file_path: file, content: plan(noteFile(ctx), finding(ctx)) });
    },
    () => tool('ExitPlanMode', {}),
    (ctx) => {
      const result = ctx.toolResults[0];
      if (result === undefined || result.isError)
        return text(`You sent the plan back (${quote(result?.text ?? '')}); I have written nothing.`);
      const content = `# This machine\n\n${finding(ctx)}\n`;
      return tool('Write', { file_path: join(cwd, noteFile(ctx)), content });
    },
    (ctx) => {
      const result = ctx.toolResults[0];
      return text(
        result === undefined || result.isError
          ? `I did not write ${noteFile(ctx)}: ${quote(result?.text ?? '')}.`
          : `${noteFile(ctx)} is written: ${finding(ctx)}`,
      );
    },
  ];
}

function reported(ctx: RequestContext): boolean {
  return /<status>completed<\/status>/.test(ctx.turnText);
}

/** The background agent's report, from the notification that started the turn. */
function finding(ctx: RequestContext): string {
  const report = /<result>([\s\S]*?)<\/result>/.exec(ctx.turnText)?.[1]?.trim() ?? '';
  const plain = report.replace(/^Done(\.|, but)\s*/, '').replace(/\s+/g, ' ');
  return plain === '' ? 'the background agent reported nothing.' : plain;
}

/** The file the person chose: an offered one, or their own plain file name; the default otherwise. */
function noteFile(ctx: RequestContext): string {
  const answered = ANSWERED.exec(allToolResults(ctx))?.[2]?.trim() ?? '';
  return /^[\w-][\w.-]{0,63}$/.test(answered) && !answered.includes('..') ? answered : DEFAULT_NOTE;
}

function plan(file: string, found: string): string {
  return [
    '# Write down which machine this is',
    '',
    `1. Create \`${file}\` in the project folder with what the background agent found:`,
    `   > ${found}`,
    '2. Change nothing else.',
  ].join('\n');
}

/** Every tool result of the conversation, as one text (answers given in an earlier round included). */
function allToolResults(ctx: RequestContext): string {
  const messages = Array.isArray(ctx.body.messages) ? (ctx.body.messages as unknown[]) : [];
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) {
      const block = value as { type?: unknown; text?: unknown; content?: unknown };
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      else if (block.type === 'tool_result') collect(block.content);
    }
  };
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (Array.isArray(content))
      for (const block of content) if ((block as { type?: unknown })?.type === 'tool_result') collect(block);
  }
  return texts.join('\n');
}

function quote(text: string): string {
  const line = text
    .replace(/<\/?tool_use_error>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return `“${line.length > 200 ? `${line.slice(0, 200)}…` : line}”`;
}

function tool(name: string, input: Record<string, unknown>, lead?: string): Reply {
  return {
    content: [
      ...(lead === undefined ? [] : [{ type: 'text' as const, text: lead }]),
      { type: 'tool_use', name, input },
    ],
  };
}

function text(words: string): Reply {
  return { content: [{ type: 'text', text: words }] };
}
