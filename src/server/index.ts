// warden/server: the HTTP + WebSocket API over a Supervisor, with token auth, and the static browser UI.
// See docs/server.md.
export { createServer, DEFAULT_HOST, type ServerOptions, type WardenServer } from './server.js';
export { TOKEN_FILE } from './token.js';
export { DEFAULT_STREAM_LIMITS, type StreamLimits } from './ws-stream.js';
export * from './api-schema.js';
