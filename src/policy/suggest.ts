// A rule to suggest on an approval's card once the same kind of request has been approved often enough:
// the narrowest rule that covers this request and at least `after` approvals of the thread's history, and
// no request the history shows denied. Candidates, narrowest first:
//
//   Bash           a word prefix of the one simple command, ending on a word that is no option:
//                  `npm test -- c` → `Bash(npm test:*)`, then `Bash(npm:*)`
//   file tools     the file's folder and each folder above it up to the cwd, for the same tool:
//                  `src/ui/a.ts` → `Edit(src/ui/**)`, `Edit(src/**)`
//   an MCP tool    the tool itself: `mcp__db__query`
//
// Whether a candidate covers a request is asked of the policy's own allow-rule step
// (`coveredByAllowRules`), with the thread's cwd and sandbox: a suggestion covers exactly what it would
// allow once saved. A protected write is a person's to allow each time: nothing is suggested for one.
import { dirname, relative, resolve } from 'node:path';

import { EDIT_TOOLS } from './cli-verdict.js';
import { compilePolicy, coveredByAllowRules, protectedWriteReason } from './policy.js';
import { within } from './real-paths.js';
import { analyzeShell, type SimpleCommand } from './shell-commands.js';
import type { CliContext } from './verdict.js';

/** How many approvals of the same kind make a suggestion, unless configured otherwise. */
export const SUGGEST_AFTER = 3;

/** A request of the thread's history, and how it ended. */
export interface PastRequest {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly outcome: 'allowed' | 'denied' | 'pending' | 'cancelled' | 'expired';
}

export interface SuggestionContext {
  readonly cwd: string;
  readonly osEnforced: boolean;
  /** Approvals needed (default SUGGEST_AFTER). */
  readonly after?: number | undefined;
}

export interface RuleSuggestion {
  readonly rule: string;
  /** How many past approvals it covers. */
  readonly approvals: number;
}

const FILE_TOOLS = new Set([...EDIT_TOOLS, 'Read']);

/** The suggestion for `request` given the thread's `history` (this request left out), or undefined. */
export function suggestRule(
  request: { toolName: string; input: Record<string, unknown>; cli?: CliContext },
  history: readonly PastRequest[],
  context: SuggestionContext,
): RuleSuggestion | undefined {
  const after = context.after ?? SUGGEST_AFTER;
  if (after < 1) return undefined;
  const guard = compilePolicy('supervised', { allow: [], deny: [] }, context.cwd, context.osEnforced);
  if (protectedWriteReason(guard, request.toolName, request.input, request.cli) !== undefined)
    return undefined;
  const same = history.filter((past) => past.toolName === request.toolName);
  const allowed = same.filter((past) => past.outcome === 'allowed');
  if (allowed.length < after) return undefined;
  const denied = same.filter((past) => past.outcome === 'denied');
  for (const rule of candidates(request.toolName, request.input, context.cwd)) {
    const policy = compilePolicy('supervised', { allow: [rule], deny: [] }, context.cwd, context.osEnforced);
    const covers = (past: { toolName: string; input: Record<string, unknown> }) =>
      coveredByAllowRules(policy, past.toolName, past.input);
    if (!covers(request) || denied.some(covers)) continue;
    const approvals = allowed.filter(covers).length;
    if (approvals >= after) return { rule, approvals };
  }
  return undefined;
}

/** The rules that could cover the request, narrowest first. */
function candidates(toolName: string, input: Record<string, unknown>, cwd: string): string[] {
  if (toolName === 'Bash') return commandPrefixes(typeof input.command === 'string' ? input.command : '');
  if (FILE_TOOLS.has(toolName)) return folderRules(toolName, filePath(input), cwd);
  if (toolName.startsWith('mcp__')) return [toolName];
  return [];
}

/** `Bash(w1 … wk:*)` for each prefix ending on a word that is no option, the longest first. */
function commandPrefixes(command: string): string[] {
  const analysis = analyzeShell(command);
  const [simple] = analysis.commands;
  if (simple === undefined || analysis.commands.length !== 1 || !plain(simple)) return [];
  const words = simple.words;
  // Up to the first word a rule could not name as it is (a glob character, a space, a parenthesis).
  const usable = words.findIndex((word) => !/^[^\s*()]+$/u.test(word));
  const end = usable === -1 ? words.length : usable;
  const rules: string[] = [];
  for (let k = Math.min(end, words.length - 1); k >= 1; k--) {
    if ((words[k - 1] ?? '').startsWith('-')) continue;
    rules.push(`Bash(${words.slice(0, k).join(' ')}:*)`);
  }
  return rules;
}

function plain(simple: SimpleCommand): boolean {
  return !simple.dynamic && !simple.appended && simple.via.length === 0;
}

function filePath(input: Record<string, unknown>): string | undefined {
  const path = input.file_path ?? input.notebook_path;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

/** `Tool(folder/**)` for the file's folder and each one above it, up to the cwd (or the root outside it). */
function folderRules(toolName: string, path: string | undefined, cwd: string): string[] {
  if (path === undefined) return [];
  const root = resolve(cwd);
  const file = resolve(root, path);
  const inside = within(root, file);
  const rules: string[] = [];
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    if (inside && folder === root) break;
    const named = inside ? relative(root, folder) : `/${folder}`;
    if (!/^[^*()]+$/u.test(named)) break;
    rules.push(`${toolName}(${named}/**)`);
    // Outside the cwd, up to a folder under the root: never every file there is.
    if (!inside && dirname(folder) === dirname(dirname(folder))) break;
  }
  return rules;
}
