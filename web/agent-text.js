// @ts-check
// What the CLI and test scripts put into text that is not meant for a person, taken out for display only
// (the log keeps every word):
// - the Agent (Task) tool's result carries notes for the model — "(This tool result is internal
//   metadata …)", `agentId: … (internal ID …)` lines, `<usage>…</usage>` blocks, the path of the
//   subagent's transcript and instructions not to read it. The person is shown the subagent's report.
// - a prompt may start with routing markers such as `[[demo]]`, which steer a scripted model.
// Nothing here decides anything: approvals show tool inputs, which are never filtered.

/** Routing markers at the very start of a prompt: `[[word]]`, one or more, and the space after them. */
const LEADING_MARKERS = /^\s*(?:\[\[[\w-]{1,40}\]\]\s*)+/u;

/** @param {string} text a prompt as a person typed it, without leading routing markers */
export function promptForDisplay(text) {
  return text.replace(LEADING_MARKERS, '');
}

/** The tools whose result is a subagent's report followed by the CLI's notes for the model. */
export const AGENT_TOOLS = new Set(['Agent', 'Task']);

/** Pieces of an Agent result that are addressed to the model, not the person. */
const METADATA = [
  // "<usage>total_tokens: …\ntool_uses: …\nduration_ms: …</usage>"
  /<usage>[\s\S]*?<\/usage>/gu,
  // "agentId: a1b2c3 (internal ID - do not mention to user. …)" or "(for resuming …)", to the line's end
  /agentId:\s*[\w-]+[^\n]*/gu,
  // The path of the subagent's transcript, and the instruction not to read it.
  /^output_file:[^\n]*$/gmu,
  /^Do NOT Read or tail this file[^\n]*$/gmu,
];

/** A background launch: the whole result is a note to the model ("This tool result is internal metadata"). */
const LAUNCH_NOTE = /\(This tool result is internal metadata\b/u;

/**
 * The part of an Agent tool result a person reads: the subagent's report. Empty when the result was only
 * the CLI's note that the subagent started in the background (its report comes when it ends).
 * @param {string} text
 */
export function agentReport(text) {
  if (LAUNCH_NOTE.test(text)) return '';
  let report = text;
  for (const pattern of METADATA) report = report.replace(pattern, '');
  return report.replace(/\n{3,}/gu, '\n\n').trim();
}
