// The types that the official package and Warden both export but that are not assignable both ways, with
// the direction that fails and why (mutual.test.ts checks that this list is exactly what fails: a fixed
// one must leave it). Each is deliberate: Warden keeps open what the CLI extends every release (hook event
// names, control requests), its Query promises more than the official one, and its errors carry a `code`.
// Code typed against the official types still compiles against Warden (typecheck.test.ts).
import type { Direction } from './mutual.js';

const OPEN_CONTROL =
  'a control request is `{ subtype: string; [key]: unknown }`, not the union of the 41 this release lists: the control channel takes any subtype (answering one it has no handler for with an error that names it), so a request a newer CLI sends is typed as it arrives';
const QUERY_HAS_MORE =
  "Warden's Query is a class that promises more than the official interface (`inputClosed`, `closed`, `pid`, `detach()`, `redeliveredRequests`) and keeps its state in `#` fields, so an object typed with the official Query is not a Warden one; Warden's is assignable to the official";

export const MUTUAL_EXCEPTIONS: Readonly<Record<string, { direction: Direction; reason: string }>> = {
  '. AbortError': {
    direction: 'official-to-warden',
    reason:
      "Warden's AbortError is a WardenError with a stable `code`; the official one is a bare Error subclass",
  },
  '. HookEvent': {
    direction: 'warden-to-official',
    reason:
      '`KnownHookEvent | string`, where the official type lists the events of this release: a hook for an event a newer CLI adds still registers (Options.hooks is keyed by it)',
  },
  '. InMemorySessionStore': {
    direction: 'warden-to-official',
    reason:
      'the official class declares TypeScript `private` members (`store`, `mtimes`, …), which make it nominal: only an instance of that very class is assignable to it',
  },
  '. Query': { direction: 'official-to-warden', reason: QUERY_HAS_MORE },
  '. WarmQuery': {
    direction: 'official-to-warden',
    reason: `its query() returns a Query: ${QUERY_HAS_MORE}`,
  },
  '. SDKControlRequest': { direction: 'warden-to-official', reason: OPEN_CONTROL },
  '. SDKControlResponse': {
    direction: 'warden-to-official',
    reason: `its \`pending_permission_requests\` are SDKControlRequests: ${OPEN_CONTROL}`,
  },
  '. Transport': { direction: 'warden-to-official', reason: `the frames it carries: ${OPEN_CONTROL}` },
  './sdk-tools WorkflowInput': {
    direction: 'warden-to-official',
    reason:
      "`args`: the CLI's schema for it is `{}` (any JSON value; its description asks for arrays and objects alike), so it is `unknown`; the official generator reads an empty schema as an object",
  },
};
