// The Codex app-server (`codex app-server`, JSON-RPC over stdio): a typed client for the pinned CLI.
export { CodexAppServer, startCodexAppServer } from './app-server.js';
export type { CodexAppServerOptions, CodexNotification, UnknownServerRequest } from './app-server.js';
export { JsonRpcPeer } from './json-rpc.js';
export type { JsonRpcHandlers, JsonRpcId } from './json-rpc.js';
export { CODEX_TEST_MODEL, codexProviderConfig, codexProviderToml } from './provider-config.js';
export type { CodexProvider } from './provider-config.js';
export { CODEX_EXECUTABLE_VARIABLE, CODEX_PACKAGE, resolveCodexExecutable } from './resolve-codex.js';
export type * from './protocol.generated.js';
export {
  attachCodexAppServer,
  pendingRequests,
  resolvedRequests,
  spawnDetachedCodexAppServer,
} from './detached.js';
export type { DetachedCodex } from './detached.js';
export type { CodexClientHandlers, CodexTransport } from './app-server.js';
