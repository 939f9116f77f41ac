// The prompt of a thread's query(): an AsyncIterable that stays open for the life of the CLI process, so
// the SDK keeps stdin open and send() can push the next user message at any time.
import type { SDKUserMessage } from '../../protocol/messages.js';

export class InputQueue implements AsyncIterable<SDKUserMessage> {
  readonly #pending: SDKUserMessage[] = [];
  #wake: (() => void) | undefined;
  #ended = false;

  push(message: SDKUserMessage): void {
    if (this.#ended) return;
    this.#pending.push(message);
    this.#wakeReader();
  }

  /** Ends the input: the SDK may then close stdin once nothing else can ask. Idempotent. */
  end(): void {
    this.#ended = true;
    this.#wakeReader();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SDKUserMessage, void> {
    for (;;) {
      const next = this.#pending.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** A user message as the supervisor sends it: with a uuid and `origin: human`, so the CLI marks host turns. */
export function hostUserMessage(text: string, uuid: string): SDKUserMessage {
  return {
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
    session_id: '',
    uuid,
    origin: { kind: 'human' },
  } as SDKUserMessage;
}
