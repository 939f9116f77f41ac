// Session functions: list, read, fork, rename, tag and delete the sessions the CLI recorded, with the
// official Agent SDK's names and results. See docs/sessions.md.
export { listSessions, getSessionInfo } from './list-sessions.js';
export { getSessionMessages } from './session-messages.js';
export { forkSession } from './fork-session.js';
export { renameSession, tagSession, deleteSession } from './mutate-session.js';
export type * from './types.js';
export { archiveSession, unarchiveSession } from './archive.js';
export { listSubagents, getSubagentMessages } from './subagents.js';
export type { ListSubagentsOptions, GetSubagentMessagesOptions } from './subagents.js';
