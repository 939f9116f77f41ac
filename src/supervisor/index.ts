// warden/supervisor: threads → runs → subagents → approvals over the Claude Code CLI, with policies and
// an append-only event log in SQLite. See docs/supervisor.md.
export { Supervisor, DATABASE_FILE } from './supervisor.js';
export type {
  CloseOptions,
  CloseResult,
  Decision,
  EventsOptions,
  NewThread,
  QueryFunction,
  SupervisedQuery,
  SupervisorEvent,
  SupervisorOptions,
  ThreadView,
} from './types.js';
export type { BatchLeftOut, BatchPreview, BatchResult, BatchSelection } from './approvals/batch.js';
export type { SimulationRequest, SimulationScope } from './approvals/simulation.js';
export type { ApprovalSuggestion } from './approvals/suggestion.js';
export type { PolicyChange, Simulation, SimulatedRequest, SimulationSummary } from '../policy/simulate.js';
export type { TimelineItem, TimelinePermission } from './timeline.js';
export { buildTimeline } from './timeline.js';
export {
  EDIT_TOOLS,
  compilePolicy,
  evaluatePolicy,
  isInside,
  type CompiledPolicy,
  type PolicyVerdict,
} from '../policy/policy.js';
export { compileRule, ruleMatches, type CompiledRule } from '../policy/rules.js';
export {
  APPROVAL_RISKS,
  describeScope,
  risksOf,
  scopeCovers,
  validateScope,
  type ApprovalScope,
  type ScopeTarget,
} from './approvals/scope.js';
export { validateRoutes, type ApprovalRoute } from './approvals/routes.js';
export type { RouteTimers } from './approvals/route-timers.js';
export type { RecoverySummary } from './durable/closeout.js';
export type { Recovered } from './durable/host-restart.js';
export type { LeftRunning } from './durable/detached-idle.js';
export type {
  ApprovalDecision,
  ApprovalEscalation,
  ApprovalRecord,
  ApprovalRisk,
  ApprovalRouting,
  ApprovalStatus,
  DecisionBehavior,
  RunRecord,
  RunResult,
  RunStatus,
  SubagentRecord,
  SubagentStatus,
  ThreadMode,
  ThreadRecord,
  ThreadRules,
  ThreadStatus,
} from '../store/records.js';
export { THREAD_MODES } from '../store/records.js';
export type {
  AssistantBlock,
  EventDataMap,
  EventText,
  EventType,
  RejectCondition,
  StoredEvent,
} from '../store/event-types.js';
export {
  ConflictError,
  NotFoundError,
  SandboxUnavailableError,
  StoreError,
  ValidationError,
} from '../protocol/errors.js';
export type { SandboxStatus } from './runtime/sandbox-state.js';
export { HostClosingError, type HookAnswer, type HookWait } from './external/external-gate.js';
export { HOOK_EVENTS, type HookEvent } from './external/hook-report.js';
