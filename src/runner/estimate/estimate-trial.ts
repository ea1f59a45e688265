import type { AssertionResult, TrialResult } from '../../core/results-schema.js';
import type { Usage } from '../../core/usage.js';
import { priceUsage, type PriceTable } from '../../providers/pricing.js';
import { silentPricing, usageOfRun } from '../../providers/run-usage.js';
import { SIMILAR_TO } from '../../assertions/similar-to.js';

/** What one recorded trial would cost today: each role in dollars, null when it cannot be priced. */
export interface TrialCost {
  target: number | null;
  judge: number | null;
}

/** What a recorded trial's judging says about the judge cache and the batch API. */
export interface JudgeCalls {
  /** Judged assertions that got an answer (cached or asked). */
  answered: number;
  /** Of those, answered from the judge cache (they cost nothing). */
  cached: number;
  /** Of the asked ones, asked through a provider's batch API (billed at its batch rate). */
  batch: number;
}

/**
 * A recorded trial priced with today's price table: the target's calls from its trace (each step
 * with its own model and tokens, as the run prices them), the judges' from each judged assertion's
 * usage (at the batch rate when it was batched; a cached answer cost nothing, so the recorded cache
 * hit rate is carried over). Where the recording's tokens cannot be re-priced (no known price, or
 * the trace does not hold every call), the cost recorded at the time stands in.
 */
export function trialCost(trial: TrialResult, overrides: PriceTable): TrialCost {
  return { target: targetCost(trial, overrides), judge: judgeCost(trial, overrides) };
}

function targetCost(trial: TrialResult, overrides: PriceTable): number | null {
  const recorded = trial.usage.target;
  // An unknown price falls back to the recorded cost, so no warning.
  const repriced = usageOfRun({ ...trial.trace, reply: trial.reply }, silentPricing(overrides));
  return sameTokens(repriced, recorded) && repriced.costUsd !== null ? repriced.costUsd : recorded.costUsd;
}

function judgeCost(trial: TrialResult, overrides: PriceTable): number | null {
  // `similarTo`'s embeddings are counted from the plan (estimate-embeddings.ts), not from the recording.
  const embedded = trial.assertions.flatMap((a) => (a.kind === SIMILAR_TO && a.judge ? [a.judge.usage] : []));
  const recorded = embedded.reduce((r, u) => subtractUsage(r, u), trial.usage.judge);
  const asked = trial.assertions.flatMap((a) => (a.kind !== SIMILAR_TO && a.judge && !a.judge.cached && a.judge.usage.calls > 0 ? [a.judge] : []));
  const tokens = asked.reduce((t, j) => ({ calls: t.calls + j.usage.calls, inputTokens: t.inputTokens + j.usage.inputTokens, outputTokens: t.outputTokens + j.usage.outputTokens }), {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
  });
  // Judge calls not kept on an assertion (or an older file): the recorded total is all there is.
  if (!sameTokens(tokens, recorded)) return recorded.costUsd;
  let usd = 0;
  for (const j of asked) {
    const cost = repriceCalls(`${j.provider}:${j.model}`, j.usage, overrides, j.batch === true) ?? j.usage.costUsd;
    if (cost === null) return recorded.costUsd;
    usd += cost;
  }
  return usd;
}

/**
 * Usage summed over `calls` calls, priced as that many equal calls (a long-prompt tier is reached
 * per call, so the sum is not priced as one call).
 */
export function repriceCalls(model: string, u: Usage, overrides: PriceTable, batch: boolean): number | null {
  const per = (n: number) => Math.round(n / u.calls);
  const one = priceUsage(model, { inputTokens: per(u.inputTokens), outputTokens: per(u.outputTokens), cachedInputTokens: per(u.cachedInputTokens) }, overrides, { batch });
  return one === null ? null : one * u.calls;
}

const sameTokens = (a: Pick<Usage, 'calls' | 'inputTokens' | 'outputTokens'>, b: Pick<Usage, 'calls' | 'inputTokens' | 'outputTokens'>) =>
  a.calls === b.calls && a.inputTokens === b.inputTokens && a.outputTokens === b.outputTokens;

/** The judge answers of a trial, for the cache hit and batch rates an estimate reports (embeddings are counted from the plan). */
export function judgeCalls(trial: TrialResult): JudgeCalls {
  const answered = trial.assertions.filter((a): a is AssertionResult & { judge: NonNullable<AssertionResult['judge']> } => a.judge !== undefined && a.status !== 'skipped' && a.kind !== SIMILAR_TO);
  return {
    answered: answered.length,
    cached: answered.filter((a) => a.judge.cached === true).length,
    batch: answered.filter((a) => a.judge.cached !== true && a.judge.batch === true).length,
  };
}

/** `a` without `b`'s calls, tokens and dollars (null stays null: a part could not be priced). */
function subtractUsage(a: Usage, b: Usage): Usage {
  return {
    ...a,
    calls: a.calls - b.calls,
    inputTokens: a.inputTokens - b.inputTokens,
    outputTokens: a.outputTokens - b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? a.costUsd : a.costUsd - b.costUsd,
  };
}
