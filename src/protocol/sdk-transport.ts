// The official Agent SDK's Transport interface: how it talks to a CLI it did not spawn, and what such a
// transport reads. Types only, declared for type compatibility.
import type { SDKMessage } from './messages.js';
import type { SDKControlRequest, SDKControlResponse } from './sdk-extra-types.js';
import type { SDKActiveGoalMessage } from './system-messages.js';

/** Everything a transport may read from the CLI's stdout. */
type StdoutMessage =
  | SDKMessage
  | SDKActiveGoalMessage
  | SDKControlResponse
  | SDKControlRequest
  | { type: 'control_cancel_request'; request_id: string }
  | { type: 'keep_alive' };

/**
 * How the official SDK talks to a CLI it did not spawn. Declared for type compatibility; Warden's own
 * transports are internal, and a user-supplied process goes through `spawnClaudeCodeProcess`.
 */
export interface Transport {
  write(data: string): void | Promise<void>;
  close(): void;
  isReady(): boolean;
  readMessages(): AsyncGenerator<StdoutMessage, void, unknown>;
  expectControlResponse?(requestId: string): void;
  markDelivered?(message: object): void;
  endInput(): void;
  waitForExit?(): Promise<void>;
  [Symbol.dispose]?(): void;
}
