// `warden/policy`: the permission policy on its own, a pure function of (request, rules, mode) → allow,
// deny or ask with the reason, with the tables that drive it. The supervisor decides every request through
// it; an SDK application can call it from its own `canUseTool` (policyFor + decideToolCall). docs/policy.md
// says what it decides, in which order, and what it cannot do.
export {
  compilePolicy,
  compiledPolicyFor,
  decidingStep,
  evaluatePolicy,
  protectedWriteReason,
  requestVerdict,
  validateMode,
  validateRules,
  type CliContext,
  type CompiledPolicy,
  type PolicyVerdict,
} from './policy.js';
export {
  MODE_DOCS,
  POLICY_ORDER,
  type PolicyExample,
  type PolicyRequest,
  type PolicyStep,
  type PolicyStepId,
} from './order.js';
export {
  decideToolCall,
  policyFor,
  type PolicyAsk,
  type PolicySettings,
  type ToolCallContext,
} from './can-use-tool.js';
export { QUESTIONS_FOR_A_PERSON, askingPersonQuestions } from './person-questions.js';
export {
  SUGGEST_AFTER,
  suggestRule,
  type PastRequest,
  type RuleSuggestion,
  type SuggestionContext,
} from './suggest.js';
export {
  changedPolicy,
  decidedOtherwise,
  describeSimulation,
  simulatePolicy,
  validatePolicyChange,
  type DeadlineSummary,
  type DeadlinesChange,
  type PastOutcome,
  type PolicyChange,
  type RecordedRequest,
  type SimulatedRequest,
  type Simulation,
  type SimulationSummary,
  type ThreadPolicy,
} from './simulate.js';
export {
  PROTECTED_GROUPS,
  PROTECTED_PATHS,
  UNPROTECTED,
  normalizeSegment,
  protectedEntryFor,
  type ProtectedEntry,
  type ProtectedGroup,
  type ProtectedKind,
  type UnprotectedEntry,
} from './protected-paths.js';
export { EDIT_TOOLS, cliCallsSensitive } from './cli-verdict.js';
export { compileRule, ruleMatches, type CompiledRule } from './rules.js';
export { analyzeShell, type ShellAnalysis, type SimpleCommand } from './shell-commands.js';
export { isInside } from './real-paths.js';
export { alwaysAllowRules, parseRule, type AlwaysAllowRequest } from './always-allow.js';
export { THREAD_MODES, type ThreadMode, type ThreadRules } from '../store/records.js';
