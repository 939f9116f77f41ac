// What `warden run` shows before asking about an approval: the tool, then what it would act on in full
// (the command, the path, the subagent's prompt — never the agent's description of it in its place), with
// the line count and any cut said before the text, every line made safe for the terminal, and the agent's
// own description after it, labelled as its claim.
import { showBlock, terminalSafe } from '../view/visible-text.js';
import type { Styles } from './transcript.js';

const MAX_CHARS = 2000;
const MAX_LINES = 40;
const MAX_CLAIM = 200;

/** The input field a person decides on, per tool; the first string field of these, in order. */
const SUBJECT_KEYS = ['command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'query', 'prompt'];

/** The lines of the question's head: `? Allow Bash (61 lines):` and the text under it. */
export function approvalQuestion(
  toolName: string,
  input: Record<string, unknown>,
  from: string | null,
  s: Styles,
): string {
  const key = SUBJECT_KEYS.find((k) => typeof input[k] === 'string');
  const subject = key === undefined ? JSON.stringify(input, null, 2) : String(input[key]);
  const { lines, facts } = showBlock(subject, MAX_CHARS, MAX_LINES);
  const agent = from === null ? '' : ` (subagent ${terminalSafe(from, { fold: true })})`;
  const head = `${s.yellow('?')} Allow ${s.bold(terminalSafe(toolName))}${agent}`;
  const out: string[] = [];
  if (lines.length === 1 && facts.length === 0) out.push(`${head}: ${s.bold(lines[0] ?? '')}`);
  else {
    out.push(`${head}${facts.length > 0 ? ` — ${s.yellow(facts.join(', '))}` : ''}:`);
    for (const line of lines) out.push(`    ${s.bold(line)}`);
  }
  const claim = input.description;
  if (key !== 'description' && typeof claim === 'string' && claim.trim() !== '') {
    const cut = claim.length > MAX_CLAIM ? `${claim.slice(0, MAX_CLAIM)}…` : claim;
    const flat = terminalSafe(cut, { fold: true }).replace(/\n/g, ' ⏎ ');
    out.push(s.dim(`  the agent describes it as (its own words, not checked): “${flat}”`));
  }
  return `${out.join('\n')}\n`;
}
