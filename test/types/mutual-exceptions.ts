// The types that the official package and Warden both export but that are not assignable both ways, with
// the direction that fails and why (mutual.test.ts checks that this list is exactly what fails: a fixed
// one must leave it). Most are deliberate: Warden keeps open what the CLI extends every release (a string
// where the official lists today's values, an open record where it spells out today's fields), so a value
// Warden hands over may carry what the official type does not name yet; code typed against the official
// types still compiles against Warden (typecheck.test.ts).
import type { Direction } from './mutual.js';

const OPEN_VALUES =
  'a string where the official type lists the values of this release, so a newer CLI value passes';
const OPEN_SETTINGS =
  'settings are passed to the CLI as written: `hooks`, `enabledPlugins` and the like are open records, not the official per-key shapes';
const INFERRED_OUTPUT =
  'inferred from the results the CLI returned in a recorded run (Claude Code publishes no output schema): a field seen in every result is required, a string stays `string`, and a field no result had is missing';
const OPEN_CONTROL =
  'control requests are open (`{ subtype: string; [key]: unknown }`), so one a newer CLI sends still passes through';

export const MUTUAL_EXCEPTIONS: Readonly<Record<string, { direction: Direction; reason: string }>> = {
  '. AbortError': {
    direction: 'official-to-warden',
    reason:
      "Warden's AbortError is a WardenError with a stable `code`; the official one is a bare Error subclass",
  },
  '. HookEvent': { direction: 'warden-to-official', reason: OPEN_VALUES },
  '. InMemorySessionStore': {
    direction: 'warden-to-official',
    reason:
      "the official class declares its storage fields (`store`, `mtimes`, …) public; Warden's keeps its own private",
  },
  '. Options': { direction: 'warden-to-official', reason: OPEN_SETTINGS },
  '. Query': { direction: 'warden-to-official', reason: `its settings answers: ${OPEN_SETTINGS}` },
  '. WarmQuery': { direction: 'warden-to-official', reason: `its settings answers: ${OPEN_SETTINGS}` },
  '. ResolvedSettings': { direction: 'warden-to-official', reason: OPEN_SETTINGS },
  '. Settings': { direction: 'warden-to-official', reason: OPEN_SETTINGS },
  '. SDKAPIRetryMessage': { direction: 'warden-to-official', reason: `\`error\`: ${OPEN_VALUES}` },
  '. SDKConversationResetMessage': { direction: 'warden-to-official', reason: `\`trigger\`: ${OPEN_VALUES}` },
  '. SDKMessage': {
    direction: 'warden-to-official',
    reason: 'through SDKAPIRetryMessage, SDKAssistantMessage and SDKConversationResetMessage',
  },
  '. SDKAssistantMessage': {
    direction: 'warden-to-official',
    reason:
      "`context_usage` is Warden's one context-usage shape (the getContextUsage() answer), not the official's second one",
  },
  '. SDKContextUsage': {
    direction: 'warden-to-official',
    reason: 'Warden has one context-usage shape for both places the official SDK has two',
  },
  '. SDKContextUsageCategory': {
    direction: 'official-to-warden',
    reason: 'Warden requires the `color` the CLI sends with each category; the official type leaves it out',
  },
  '. SDKControlGetUsageResponse': {
    direction: 'warden-to-official',
    reason: '`behaviors` and `rate_limits` are open records: the usage report changes shape often',
  },
  '. SDKUsageReport': {
    direction: 'warden-to-official',
    reason: '`behaviors` and `rate_limits` are open records: the usage report changes shape often',
  },
  '. SDKControlRequest': { direction: 'warden-to-official', reason: OPEN_CONTROL },
  '. SDKControlResponse': { direction: 'warden-to-official', reason: OPEN_CONTROL },
  '. Transport': { direction: 'warden-to-official', reason: `the frames it carries: ${OPEN_CONTROL}` },
  '. SdkMcpToolDefinition': {
    direction: 'warden-to-official',
    reason:
      '`annotations` and `_meta` take `undefined`: tool() always sets both keys, as the official tool() does',
  },
  './sdk-tools AskUserQuestionInput': {
    direction: 'warden-to-official',
    reason:
      "generated from the CLI's JSON Schema, where the official type turns minItems/maxItems into tuples",
  },
  './sdk-tools WorkflowInput': {
    direction: 'warden-to-official',
    reason: "`args`: the CLI's schema gives it no type (unknown); the official type says object",
  },
  ...Object.fromEntries(
    (
      [
        ['BashOutput', 'official-to-warden'],
        ['CronCreateOutput', 'official-to-warden'],
        ['CronListOutput', 'official-to-warden'],
        ['ExitPlanModeOutput', 'official-to-warden'],
        ['FileEditOutput', 'official-to-warden'],
        ['FileReadOutput', 'warden-to-official'],
        ['FileWriteOutput', 'warden-to-official'],
        ['GlobOutput', 'official-to-warden'],
        ['GrepOutput', 'warden-to-official'],
        ['ListMcpResourcesOutput', 'warden-to-official'],
        ['NotebookEditOutput', 'warden-to-official'],
        ['ReadMcpResourceOutput', 'official-to-warden'],
        ['TaskCreateOutput', 'official-to-warden'],
        ['TaskGetOutput', 'warden-to-official'],
        ['TaskListOutput', 'warden-to-official'],
        ['TaskUpdateOutput', 'official-to-warden'],
        ['TodoWriteOutput', 'warden-to-official'],
        ['ToolOutputSchemas', 'warden-to-official'],
      ] as const
    ).map(([name, direction]) => [`./sdk-tools ${name}`, { direction, reason: INFERRED_OUTPUT }]),
  ),
};
