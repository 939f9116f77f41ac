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
  '. SDKControlRequest': { direction: 'warden-to-official', reason: OPEN_CONTROL },
  '. SDKControlResponse': { direction: 'warden-to-official', reason: OPEN_CONTROL },
  '. Transport': { direction: 'warden-to-official', reason: `the frames it carries: ${OPEN_CONTROL}` },
  '. SdkMcpToolDefinition': {
    direction: 'warden-to-official',
    reason:
      '`annotations` and `_meta` take `undefined`: tool() always sets both keys, as the official tool() does',
  },
  './sdk-tools WorkflowInput': {
    direction: 'warden-to-official',
    reason:
      "`args`: the CLI's schema for it is `{}` (any JSON value; its description asks for arrays and objects alike), so it is `unknown`; the official generator reads an empty schema as an object",
  },
};
