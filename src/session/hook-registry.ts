// Hook callbacks: each function gets an id (`hook_<n>`, in event → matcher → function order, as the
// official SDK allocates them); initialize tells the CLI the ids, hook_callback calls them back.
import { CallbackError, toError } from '../protocol/errors.js';
import type { HookCallback, HookEvent, HookCallbackMatcher, HookInput } from './options.js';

export class HookRegistry {
  readonly #callbacks = new Map<string, HookCallback>();
  readonly #config: Record<string, Record<string, unknown>[]> = {};

  constructor(hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> | undefined) {
    for (const [event, matchers] of Object.entries(hooks ?? {})) {
      if (!Array.isArray(matchers) || matchers.length === 0) continue;
      this.#config[event] = matchers.map((matcher) => this.#register(event, matcher));
    }
  }

  #register(event: string, matcher: HookCallbackMatcher): Record<string, unknown> {
    if (!Array.isArray(matcher.hooks) || matcher.hooks.some((hook) => typeof hook !== 'function'))
      throw new TypeError(`options.hooks.${event}: every matcher needs a hooks array of functions`);
    const ids = matcher.hooks.map((hook) => {
      const id = `hook_${this.#callbacks.size}`;
      this.#callbacks.set(id, hook);
      return id;
    });
    const entry: Record<string, unknown> = { hookCallbackIds: ids };
    if (matcher.matcher !== undefined) entry.matcher = matcher.matcher;
    if (matcher.timeout !== undefined) entry.timeout = matcher.timeout;
    return { ...entry };
  }

  get isEmpty(): boolean {
    return this.#callbacks.size === 0;
  }

  /** The `hooks` field of the initialize request, or undefined when there are none. */
  initializeConfig(): Record<string, Record<string, unknown>[]> | undefined {
    return this.isEmpty ? undefined : this.#config;
  }

  /** Handles hook_callback; a callback that throws becomes an error reply (the CLI reports the hook failed). */
  readonly handle = async (
    request: Record<string, unknown>,
    ctx: { signal: AbortSignal },
  ): Promise<Record<string, unknown>> => {
    const id = request.callback_id;
    const callback = typeof id === 'string' ? this.#callbacks.get(id) : undefined;
    if (callback === undefined) throw new Error(`No hook callback found for ID: ${String(id)}`);
    const toolUseID = typeof request.tool_use_id === 'string' ? request.tool_use_id : undefined;
    try {
      const output = await callback(request.input as HookInput, toolUseID, { signal: ctx.signal });
      return typeof output === 'object' && output !== null ? output : {};
    } catch (error) {
      const cause = toError(error);
      throw new CallbackError('hook', `Hook callback ${String(id)} failed: ${cause.message}`, { cause });
    }
  };
}
