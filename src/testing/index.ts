// warden/testing: drive the real Claude Code CLI offline with a scripted Messages API, and test a host
// against a fake CLI with fault modes. See docs/testing.md.
export { startMockModel } from './mock-model.js';
export type { MockModel, MockModelOptions } from './mock-model.js';
export type {
  MockScript,
  Reply,
  ReplyBlock,
  RequestContext,
  RequestKind,
  RequestRecord,
  SideKind,
  StopReason,
  TextBlock,
  ToolResultSummary,
  ToolUseBlock,
} from './mock-model-types.js';
export { DEFAULT_TEXT } from './default-reply.js';
export { DEFAULT_RESPONSES_TEXT, startMockResponses } from './mock-responses.js';
export type { MockResponses, MockResponsesOptions } from './mock-responses.js';
export type {
  ResponsesContext,
  ResponsesExec,
  ResponsesFunction,
  ResponsesItem,
  ResponsesPatch,
  ResponsesRecord,
  ResponsesReply,
  ResponsesScript,
  ResponsesText,
  ToolOutputSummary,
} from './mock-responses-types.js';
export { scenario, ScenarioBuilder } from './scenario.js';
export {
  BACKGROUND_AGENT_BASH,
  BACKGROUND_AGENT_PROMPT,
  BACKGROUND_AGENT_READ,
  backgroundSubagentScenario,
} from './canned-scenarios.js';
export type { BackgroundSubagentOptions } from './canned-scenarios.js';
export type {
  Awaitable,
  BackgroundAgentSpec,
  StepOptions,
  TextSource,
  ToolCall,
  TrackMatch,
} from './scenario.js';
export { createScratch, offlineClaudeEnv, OFFLINE_API_KEY } from './offline-env.js';
export { OFFLINE_OPENAI_KEY, offlineCodexEnv } from './offline-codex.js';
export type { OfflineCodexOptions } from './offline-codex.js';
export { writeCliWithoutStateEvents } from './cli-wrapper.js';
export type { OfflineEnvOptions, Scratch } from './offline-env.js';
export { FAKE_CLI_MODES, fakeCliArgs, fakeCliPath } from './fake-cli.js';
export type { FakeCliMode } from './fake-cli.js';
export {
  installedClaudeVersion,
  locateClaudeExecutable,
  pinnedClaudePath,
  platformPackageNames,
  resolveClaudeExecutable,
} from '../session/resolve-cli.js';
export type { ClaudeSource, ResolveClaudeOptions, ResolvedClaude } from '../session/resolve-cli.js';
export {
  postgresAvailable,
  postgresBinDir,
  startPostgresCluster,
  startThrowawayCluster,
} from './postgres-cluster.js';
export type { PostgresCluster, PostgresClusterOptions } from './postgres-cluster.js';
export { startTestWorld } from './test-world.js';
export type { AfterHook, MockedTestWorld, TestWorld, TestWorldOptions } from './test-world.js';
export { poll, until } from './until.js';
export type { UntilOptions } from './until.js';
