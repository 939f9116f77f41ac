// `warden run` sends one prompt, then waits for everything that prompt set off: its turn, the background
// subagents it launched (and their permission requests), and the turns the CLI starts by itself when they
// report. The SDK already knows when that is — it closes the CLI's stdin once the caller's input is done
// and nothing can ask any more (docs/input-lifecycle.md) — so the thread's input is made to end after its
// first message, and the run is over when the CLI process ends (the thread's `session.ended`).
import { query as sdkQuery } from '../session/query.js';
import type { QueryFunction } from '../supervisor/index.js';

export function singlePromptQuery(base: QueryFunction = sdkQuery): QueryFunction {
  return ({ prompt, options }) => base({ prompt: firstOnly(prompt), options });
}

async function* firstOnly<T>(source: AsyncIterable<T>): AsyncGenerator<T, void> {
  for await (const message of source) {
    yield message;
    return;
  }
}
