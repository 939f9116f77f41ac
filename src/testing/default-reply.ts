// What the mock answers when the script returns null: a short text for the agents, and something each
// kind of side request can use (a JSON title for the session-title request, for instance).
import type { Reply, RequestContext } from './mock-model-types.js';

export const DEFAULT_TEXT = 'ok';

export function defaultReply(ctx: RequestContext): Reply {
  switch (ctx.sideKind) {
    case 'title':
      return { content: [{ type: 'text', text: JSON.stringify({ title: 'Mock session' }) }] };
    case 'suggestion':
      return { content: [{ type: 'text', text: 'continue' }] };
    case 'progress_summary':
      return { content: [{ type: 'text', text: 'Working on it' }] };
    case 'other':
    case undefined:
      break;
  }
  return { content: [{ type: 'text', text: DEFAULT_TEXT }] };
}
