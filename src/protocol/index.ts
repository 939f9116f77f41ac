// Wire types and schemas for the Claude Code stream-json protocol. Pure: no I/O.
export * from './errors.js';
export type * from './messages.js';
export * from './control.js';
export { excerptOf } from './validate.js';
