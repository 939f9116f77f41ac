export { ControlChannel } from './control-channel.js';
export type { ControlChannelOptions, ControlRequestOptions, InboundHandler } from './control-channel.js';
export { createRequestIdGenerator } from './request-id.js';
