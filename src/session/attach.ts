// Joining a CLI that was already running (another host started it and went away). Two rules make the
// handover exact:
// - What the CLI wrote before this host's `initialize` was answered is history: its messages are still
//   delivered (the host decides what it had already processed), but its control frames belong to the
//   earlier host's channel. Requests among them that the CLI still waits on come again with the answer.
// - The `initialize` answer lists every request the CLI still waits on (`pending_permission_requests`
//   and its siblings); each is dispatched as if it had just arrived, with its original request id.
import type { ControlChannel } from '../control/control-channel.js';
import type { ControlSuccessResponse } from '../protocol/control.js';

const CONTROL_FRAMES = new Set(['control_request', 'control_response', 'control_cancel_request']);

/** Decides, frame by frame, what belongs to the history before this host's initialize was answered. */
export class AttachHistory {
  readonly #active: boolean;
  #initializeId: string | undefined;
  #over = false;

  constructor(attaching: boolean) {
    this.#active = attaching;
  }

  /** Sees every frame this host writes, to learn the id of its initialize request. */
  noteWritten(frame: Record<string, unknown>): void {
    if (!this.#active || this.#initializeId !== undefined || frame.type !== 'control_request') return;
    const request = frame.request as { subtype?: unknown } | undefined;
    if (request?.subtype === 'initialize' && typeof frame.request_id === 'string')
      this.#initializeId = frame.request_id;
  }

  /** True for a control frame of the earlier host's, which this host must not act on. */
  skips(frame: Record<string, unknown>): boolean {
    if (!this.#active || this.#over || typeof frame.type !== 'string' || !CONTROL_FRAMES.has(frame.type))
      return false;
    const response = frame.response as { request_id?: unknown } | undefined;
    if (frame.type === 'control_response' && response?.request_id === this.#initializeId) {
      this.#over = true;
      return false;
    }
    return true;
  }
}

/**
 * Dispatches the requests an initialize answer says the CLI still waits on; returns their request ids
 * (those it could read), in the order they were dispatched. One this host is still serving (a second
 * initialize lists it again) is not dispatched twice.
 */
export function dispatchPending(channel: ControlChannel, envelope: ControlSuccessResponse): string[] {
  const lists = [
    envelope.pending_permission_requests,
    envelope.pending_user_dialog_requests,
    envelope.pending_elicitation_requests,
  ];
  const ids: string[] = [];
  for (const list of lists)
    for (const frame of list ?? []) {
      const id = (frame as { request_id?: unknown }).request_id;
      if (typeof id === 'string') {
        if (channel.isServing(id)) continue;
        ids.push(id);
      }
      channel.receive(frame);
    }
  return ids;
}
