// warden/server: the HTTP + WebSocket API over a Supervisor, with token auth, and the static browser UI.
// See docs/server.md.
export { createServer, loginLink, DEFAULT_HOST, type ServerOptions, type WardenServer } from './server.js';
export { TOKEN_FILE } from './token.js';
export {
  SessionRegistry,
  DEFAULT_SESSION_LIFETIME_MS,
  DEFAULT_TICKET_TTL_MS,
  type SessionOptions,
} from './sessions.js';
export { DEFAULT_STREAM_LIMITS, type StreamLimits } from './ws-stream.js';
export * from './api-schema.js';
export { verifySignature, SIGNATURE_HEADER } from './notify/signature.js';
export { WEBHOOK_SECRET_FILE } from './notify/webhook-secret.js';
export { WEBHOOK_FORMATS, type WebhookFormat } from './notify/formats.js';
export { DEFAULT_PUSH_SUBJECT, type NotifyOptions, type PushOptions } from './notify/notify-options.js';
export { VAPID_KEYS_FILE } from './notify/vapid-keys.js';
export { PUSH_SUBSCRIPTIONS_FILE, PUSH_SHOW, type PushShow } from './notify/push-subscriptions.js';
export type { PushPayload } from './notify/push-payload.js';
export { PushDeliveryError } from './notify/push-endpoint.js';
export type { RequestedNotice, ResolvedNotice, Notice } from './notify/notice.js';
export { DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from './notify/webhook-endpoint.js';
