// The judge cache over repeats of a tool-using agent: the agent the bench runs (its tools take a
// different time on every call, the reply and tool results stay the same), the figures read from a
// run's results file and the mock LLM's counts, and the Markdown table. Pure except for the agent's
// waits: bench/judge-cache.mjs does the I/O.

/** How long each tool call takes, in turn (ms): the same tool calls, never the same timings. */
export const TOOL_DELAYS_MS = [3, 40, 120, 9, 65, 900, 17];

/**
 * A function target that looks up an order with two tools and answers. The tools' results and the
 * reply depend on the input only; each tool call waits the next delay of `delays`, so two trials of
 * a case differ only in their tool timings (`durationMs`).
 */
export function toolAgent(delays = TOOL_DELAYS_MS) {
  let call = 0;
  const wait = () => new Promise((done) => setTimeout(done, delays[call++ % delays.length]));
  return async (input, ctx) => {
    const id = /A\d+/.exec(input)?.[0] ?? 'A0';
    const order = await ctx.tool('lookup_order', { id }, async (args) => (await wait(), { id: args.id, status: 'shipped', eta: 'Friday' }));
    const tracking = await ctx.tool('get_tracking', { id }, async (args) => (await wait(), { tracking: `1Z${args.id.slice(1)}99`, events: 3 }));
    return `Order ${order.id} has ${order.status} (tracking ${tracking.tracking}) and arrives on ${order.eta}.`;
  };
}

/**
 * A run's judge cache figures: judgments asked (made + from the cache), calls made (the mock's
 * count of judge requests), calls from the cache (the results' counter), the hit rate, the judge
 * tokens the mock billed and whether the results report the same calls and tokens.
 */
export function cacheFigures(results, mockStats) {
  const counters = results?.summary?.counters;
  const judge = results?.summary?.usage?.judge;
  if (!counters || !judge) throw new Error('results file has no summary.counters or summary.usage.judge');
  const made = mockStats.judge;
  const fromCache = counters.judgeCallsFromCache;
  const judgments = made + fromCache;
  return {
    trials: results.summary.trials.run,
    judgments,
    callsMade: made,
    callsFromCache: fromCache,
    hitRate: judgments > 0 ? Math.round((fromCache / judgments) * 1000) / 1000 : NaN,
    inputTokens: mockStats.judgeInputTokens,
    outputTokens: mockStats.judgeOutputTokens,
    tokensSavedByCache: counters.judgeTokensSavedByCache,
    runnerAgrees: judge.calls === made && judge.inputTokens === mockStats.judgeInputTokens && judge.outputTokens === mockStats.judgeOutputTokens,
  };
}

const ROWS = [
  ['trials', 'trials'],
  ['judgments', 'judgments asked'],
  ['callsMade', 'judge calls made'],
  ['callsFromCache', 'judge calls from the cache'],
  ['hitRate', 'cache hit rate'],
  ['inputTokens', 'judge input tokens'],
  ['outputTokens', 'judge output tokens'],
  ['tokensSavedByCache', 'tokens saved by the cache'],
];

const show = (x) => (typeof x === 'number' && Number.isFinite(x) ? String(x) : 'n/a');

/** One row per figure; given `before` (an earlier run's JSON), a before and an after column. */
export function cacheTable(run, before) {
  const head = before ? ['figure', `before (${before.commit})`, `after (${run.commit})`] : ['figure', `measured (${run.commit})`];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const [key, label] of ROWS) lines.push(`| ${[label, ...(before ? [show(before.figures[key])] : []), show(run.figures[key])].join(' | ')} |`);
  return lines.join('\n');
}
