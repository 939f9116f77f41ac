// The example of docs/policy.md, compiled and run by test/policy/can-use-tool.test.ts; the doc shows it with
// its imports as an application writes them (scripts/generate-policy-doc.ts copies it in).
import { query, type CanUseTool, type PermissionResult } from '../../src/index.js';
import { decideToolCall, policyFor } from '../../src/policy/index.js';

/** Your own way to put a call to a person: a terminal prompt, a chat message, an inbox. */
export type AskAPerson = (
  toolName: string,
  input: Record<string, unknown>,
  reason: string,
) => Promise<PermissionResult>;

export function guardedCanUseTool(cwd: string, askAPerson: AskAPerson): CanUseTool {
  // Checked once (a ValidationError names a bad rule), compiled once, used for every call.
  const policy = policyFor({
    mode: 'auto-edits',
    rules: { allow: ['Bash(npm test)', 'Bash(git status:*)'], deny: ['Bash(rm:*)'] },
    cwd,
  });
  return async (toolName, input, options) => {
    const answer = decideToolCall(policy, toolName, input, options);
    if (answer.behavior !== 'ask') return answer;
    return askAPerson(toolName, input, answer.reason);
  };
}

export async function fixTheTests(cwd: string, askAPerson: AskAPerson): Promise<void> {
  for await (const message of query({
    prompt: 'Make `npm test` pass',
    options: { cwd, canUseTool: guardedCanUseTool(cwd, askAPerson) },
  }))
    if (message.type === 'result') console.log(message.subtype);
}
