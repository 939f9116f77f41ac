// Tools that are a question to the person, not an action: AskUserQuestion (the model asks, the person
// answers) and ExitPlanMode (the model shows its plan, the person approves it or sends it back). No mode
// and no allow rule answers them: an "allow" would send the CLI an empty answer or end plan mode unseen.
// A deny rule still denies them. The supervisor and the canUseTool adapter both apply this one rule.
import type { PolicyVerdict } from './verdict.js';

export const QUESTIONS_FOR_A_PERSON: ReadonlySet<string> = new Set(['AskUserQuestion', 'ExitPlanMode']);

/** The policy's verdict, except that a question for a person is never allowed unasked. */
export function askingPersonQuestions(toolName: string, verdict: PolicyVerdict): PolicyVerdict {
  if (verdict.behavior !== 'allow' || !QUESTIONS_FOR_A_PERSON.has(toolName)) return verdict;
  return { behavior: 'ask', reason: `${toolName} is a question for a person: no mode or rule answers it` };
}
