// The follow-up questions of a terminal answer, shared by `warden run` and `warden inbox`:
// - after "always": for how long — this CLI session, this thread (kept by Warden until removed), or this
//   project (the CLI writes it to <folder>/.claude/settings.local.json, which Warden cannot take back) —
//   with the exact rules it adds;
// - an AskUserQuestion approval: each question with its numbered options (several for a multi-select
//   question) or your own words, answered with `answers` (question → answer, several joined by ", ");
// - an ExitPlanMode approval: the plan (made safe for the terminal), then approve, or send it back with
//   feedback the model reads.
// Each reads lines from the same AnswerReader and returns null when stdin ends or the approval is
// settled elsewhere (the signal aborts).
import type { GrantScope } from '../store/records.js';
import type { AnswerReader } from './answer-reader.js';
import { showBlock, terminalSafe } from '../view/visible-text.js';
import type { Styles, Write } from './transcript.js';

export interface DialogIo {
  reader: AnswerReader;
  /** Questions go to stderr. */
  err: Write;
  styles: Styles;
  signal: AbortSignal;
  /** Repeat each line read (stdin is not a terminal, so nothing echoed it). */
  echo: boolean;
}

/** The decision a dialog gives; `null` from a dialog means no answer (stdin ended, or settled elsewhere). */
export interface DialogDecision {
  behavior: 'allow' | 'allow_always' | 'deny';
  message?: string;
  interrupt?: boolean;
  scope?: GrantScope;
  rules?: string[];
  answers?: Record<string, string>;
}

const MAX_PLAN_CHARS = 20_000;
const MAX_PLAN_LINES = 400;
const MAX_ANSWER = 4000;

async function read(io: DialogIo, prompt: string): Promise<string | null> {
  io.err(prompt);
  const line = await io.reader.next(io.signal);
  if (io.signal.aborted) return null;
  if (io.echo && line !== null) io.err(`${line}\n`);
  if (line === null) io.err('\n');
  return line;
}

/** Where a project rule goes, spelled out. */
export function projectFile(cwd: string | null): string {
  return cwd === null
    ? "the thread folder's .claude/settings.local.json"
    : `${cwd.replace(/\/+$/, '')}/.claude/settings.local.json`;
}

/** "always": asks how long the rules hold; Enter keeps the default, this CLI session. */
export async function askScope(
  io: DialogIo,
  rules: readonly string[],
  cwd: string | null,
): Promise<GrantScope | null> {
  const s = io.styles;
  const shown = rules.map((rule) => s.bold(terminalSafe(rule))).join(', ');
  io.err(
    `  always allow ${shown} for:\n` +
      `    1) this CLI session ${s.dim('(until the CLI process and its session end)')}\n` +
      `    2) this thread ${s.dim('(kept by Warden across restarts, until removed)')}\n` +
      `    3) this project ${s.yellow(`(written to ${terminalSafe(projectFile(cwd))} by the CLI; Warden cannot remove it)`)}\n`,
  );
  for (;;) {
    const line = await read(io, '  scope (1/2/3, Enter = 1)? ');
    if (line === null) return null;
    const word = line.trim().toLowerCase();
    if (word === '' || word === '1' || word === 'session') return 'session';
    if (word === '2' || word === 'thread') return 'thread';
    if (word === '3' || word === 'project') return 'project';
    io.err('  answer 1, 2 or 3\n');
  }
}

interface Question {
  question: string;
  header: string;
  options: { label: string; description: string }[];
  multiSelect: boolean;
}

/** The questions of an AskUserQuestion input, or none when it is not the shape the CLI sends. */
export function questionsOf(input: Record<string, unknown>): Question[] {
  const raw = input.questions;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry: unknown): Question[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const q = entry as Record<string, unknown>;
    if (typeof q.question !== 'string') return [];
    const options = Array.isArray(q.options)
      ? q.options.flatMap((o: unknown) => {
          const option = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
          return typeof option.label === 'string'
            ? [
                {
                  label: option.label,
                  description: typeof option.description === 'string' ? option.description : '',
                },
              ]
            : [];
        })
      : [];
    return [
      {
        question: q.question,
        header: typeof q.header === 'string' ? q.header : '',
        options,
        multiSelect: q.multiSelect === true,
      },
    ];
  });
}

/**
 * Asks each question: a number (several, comma-separated, when the question allows), or your own words;
 * `-` declines them all (a deny, with the words after it as the reason).
 */
export async function askQuestions(
  io: DialogIo,
  input: Record<string, unknown>,
): Promise<DialogDecision | null> {
  const s = io.styles;
  const questions = questionsOf(input);
  const answers: Record<string, string> = {};
  for (const [index, q] of questions.entries()) {
    const head = q.header === '' ? '' : `${s.dim(`[${terminalSafe(q.header, { fold: true })}]`)} `;
    io.err(
      `  ${s.yellow('?')} ${head}${s.bold(terminalSafe(q.question, { fold: true }))}${questions.length > 1 ? s.dim(` (${index + 1}/${questions.length})`) : ''}\n`,
    );
    q.options.forEach((option, i) => {
      const about =
        option.description === '' ? '' : s.dim(` — ${terminalSafe(option.description, { fold: true })}`);
      io.err(`    ${i + 1}) ${terminalSafe(option.label, { fold: true })}${about}\n`);
    });
    const how = q.multiSelect ? 'numbers (e.g. 1,3)' : 'a number';
    for (;;) {
      const line = await read(io, `  ${how}, or your own answer (- to decline)? `);
      if (line === null) return null;
      const text = line.trim();
      if (text === '') continue;
      if (text === '-' || text.startsWith('- ')) {
        const reason = text.slice(1).trim();
        return {
          behavior: 'deny',
          message: reason === '' ? 'Declined to answer' : reason.slice(0, MAX_ANSWER),
        };
      }
      const picked = pickOptions(text, q);
      if (picked === null) {
        io.err(
          `  pick from 1 to ${q.options.length}${q.multiSelect ? '' : ' (one only)'}, or type your own answer\n`,
        );
        continue;
      }
      answers[q.question] = (picked ?? text).slice(0, MAX_ANSWER);
      break;
    }
  }
  return { behavior: 'allow', answers };
}

/** The labels a line of numbers picks, null for numbers out of range, undefined for free text. */
function pickOptions(text: string, q: Question): string | null | undefined {
  if (!/^\d+(\s*,\s*\d+)*$/.test(text)) return undefined;
  const numbers = [...new Set(text.split(',').map((n) => Number(n.trim())))];
  if ((!q.multiSelect && numbers.length > 1) || numbers.some((n) => n < 1 || n > q.options.length))
    return null;
  return numbers.map((n) => q.options[n - 1]?.label ?? '').join(', ');
}

/** Shows the plan and asks: approve (y), or send it back (n <feedback>). */
export async function askPlan(io: DialogIo, input: Record<string, unknown>): Promise<DialogDecision | null> {
  const s = io.styles;
  const plan = typeof input.plan === 'string' ? input.plan : JSON.stringify(input, null, 2);
  const { lines, facts } = showBlock(plan, MAX_PLAN_CHARS, MAX_PLAN_LINES);
  io.err(
    `${s.yellow('?')} Approve this plan${facts.length > 0 ? ` — ${s.yellow(facts.join(', '))}` : ''}:\n`,
  );
  for (const line of lines) io.err(`    ${line}\n`);
  for (;;) {
    const line = await read(io, '  approve (y) / send back with feedback (n <feedback>)? ');
    if (line === null) return null;
    const [, head = '', rest = ''] = /^([^\s:]*)[\s:]*(.*)$/s.exec(line.trim()) ?? [];
    const word = head.toLowerCase();
    if (['y', 'yes', 'approve'].includes(word) && rest === '') return { behavior: 'allow' };
    if (['n', 'no', 'back'].includes(word)) {
      if (rest.trim() !== '') return { behavior: 'deny', message: rest.trim().slice(0, MAX_ANSWER) };
      const feedback = await read(io, '  feedback for the model (what to change)? ');
      if (feedback === null) return null;
      if (feedback.trim() !== '') return { behavior: 'deny', message: feedback.trim().slice(0, MAX_ANSWER) };
    }
    io.err('  answer y, or n with what to change\n');
  }
}
