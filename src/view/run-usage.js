// @ts-check
// What one run used, from the results the CLI reported. The CLI reports running totals for its process,
// so a run's share is the difference from the previous result of the same process (a background
// subagent's work in between counts toward the run whose result follows it).

/**
 * What a run used.
 * @typedef {object} RunUsage
 * @property {string[]} models the models that did work in the run, busiest first
 * @property {number | null} costUsd
 * @property {number} inputTokens
 * @property {number} outputTokens
 * @property {number} cacheReadTokens
 * @property {number} cacheCreationTokens
 */

/**
 * The CLI's running totals at one result.
 * @typedef {object} Totals
 * @property {number | null} costUsd
 * @property {Record<string, { inputTokens: number, outputTokens: number, cacheReadInputTokens: number,
 *   cacheCreationInputTokens: number }>} models
 */

/**
 * @param {any} result a run's recorded result (read loosely: older records lack fields)
 * @returns {Totals | null}
 */
export function totalsOf(result) {
  if (result === null || typeof result !== 'object') return null;
  const cost = typeof result.totalCostUsd === 'number' ? result.totalCostUsd : null;
  /** @type {Totals['models']} */
  const models = {};
  if (result.modelUsage !== null && typeof result.modelUsage === 'object')
    for (const [model, u] of Object.entries(result.modelUsage))
      models[model] = {
        inputTokens: Number(u?.inputTokens) || 0,
        outputTokens: Number(u?.outputTokens) || 0,
        cacheReadInputTokens: Number(u?.cacheReadInputTokens) || 0,
        cacheCreationInputTokens: Number(u?.cacheCreationInputTokens) || 0,
      };
  else if (result.usage !== null && typeof result.usage === 'object')
    // No per-model totals (older records): the turn's own usage, under no model name.
    models[''] = {
      inputTokens: Number(result.usage.inputTokens) || 0,
      outputTokens: Number(result.usage.outputTokens) || 0,
      cacheReadInputTokens: Number(result.usage.cacheReadInputTokens) || 0,
      cacheCreationInputTokens: Number(result.usage.cacheCreationInputTokens) || 0,
    };
  if (cost === null && Object.keys(models).length === 0) return null;
  return { costUsd: cost, models };
}

/**
 * @param {Totals | undefined} before the same process's previous result, if any
 * @param {Totals} now
 * @returns {RunUsage}
 */
export function usageSince(before, now) {
  /** @type {RunUsage} */
  const usage = {
    models: [],
    costUsd: now.costUsd === null ? null : Math.max(0, now.costUsd - (before?.costUsd ?? 0)),
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
  };
  /** @type {[string, number][]} */
  const busy = [];
  for (const [model, u] of Object.entries(now.models)) {
    const b = before?.models[model];
    const d = {
      input: Math.max(0, u.inputTokens - (b?.inputTokens ?? 0)),
      output: Math.max(0, u.outputTokens - (b?.outputTokens ?? 0)),
      cacheRead: Math.max(0, u.cacheReadInputTokens - (b?.cacheReadInputTokens ?? 0)),
      cacheCreation: Math.max(0, u.cacheCreationInputTokens - (b?.cacheCreationInputTokens ?? 0)),
    };
    usage.inputTokens += d.input;
    usage.outputTokens += d.output;
    usage.cacheReadTokens += d.cacheRead;
    usage.cacheCreationTokens += d.cacheCreation;
    if (model !== '' && d.input + d.output + d.cacheRead + d.cacheCreation > 0) busy.push([model, d.output]);
  }
  usage.models = busy.sort((a, b) => b[1] - a[1]).map(([model]) => model);
  return usage;
}
