// The conversation of a thread as a UI shows it is folded in one place for every reader — the browser,
// the server's thread detail, the supervisor's timeline() — in src/view/timeline.js; the supervisor
// offers it under its own names.
export { buildTimeline, decidedByWords } from '../view/timeline.js';
export type { Permission as TimelinePermission, RunUsage, TimelineItem } from '../view/timeline.js';
