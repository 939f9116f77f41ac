// An abort signal made only when someone asks for it. Most inbound requests are answered without anyone
// reading their signal, and an AbortController (an EventTarget underneath) costs more than the rest of a
// permission round trip's bookkeeping in the host. Aborting before the signal exists is remembered, so a
// signal asked for later is already aborted with the same reason.

export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Idempotent: the first reason stays. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
