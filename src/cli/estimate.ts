import { relative } from 'node:path';
import type { ResolvedConfig } from '../config/load-config.js';
import type { PlannedCase } from '../suite/plan.js';
import { UserError } from '../core/errors.js';
import { PRICES_AS_OF } from '../providers/pricing.js';
import { estimateCost, estimatedUsd, type CostEstimate } from '../runner/estimate/estimate.js';
import { estimateHistory } from './estimate-history.js';
import { estimateText, usdText } from './estimate-text.js';
import { spendingSimilarTo } from '../judges/embedding-check.js';
import type { PlannedEmbedding } from '../runner/estimate/estimate-embeddings.js';
import { plannedUser } from './estimate-user.js';

/** The plan an estimate prices: the config (its outputDir and `pricing`) and the planned cases. */
export interface EstimatePlan {
  config: ResolvedConfig;
  cases: readonly PlannedCase[];
}

/** The estimate of a plan and the text that shows it. No target, judge or model is called. */
async function estimatePlan({ config, cases }: EstimatePlan, from: string | undefined, cwd: string): Promise<{ estimate: CostEstimate; text: string }> {
  const history = await estimateHistory(
    cases.map((c) => c.key),
    config.outputDir,
    cwd,
    from,
  );
  const planned = cases.map((c) => ({
    key: c.key,
    suite: c.suite,
    trials: c.repeat,
    embeddings: plannedEmbeddings(c, config.embeddingModel),
    ...(c.simulatedUser ? { user: plannedUser(c, config) } : {}),
  }));
  const estimate = estimateCost(planned, history?.cases ?? [], config.pricing);
  const text = estimateText(estimate, {
    runs: (history?.runs ?? []).map(({ path, ...run }) => ({ file: relative(cwd, path) || path, ...run })),
    pricesAsOf: PRICES_AS_OF,
  });
  return { estimate, text };
}

/**
 * `run --estimate`: prints the plan's expected cost and ends (exit 0) without running anything; first
 * the warnings a run would print before its first trial about models that have shut down (`warnings`).
 */
export async function printEstimate(plan: EstimatePlan, from: string | undefined, cwd: string, warnings: readonly string[] = []): Promise<number> {
  const { text } = await estimatePlan(plan, from, cwd);
  process.stdout.write(warnings.map((w) => `warning ${w}\n`).join('') + text);
  return 0;
}

/**
 * `run --max-cost <usd>` before the first trial: when the estimate is above the budget, says so. In
 * CI (`CI` set, the rule the terminal reporter uses too) nobody is there to stop an expensive run,
 * so it does not start without `--force` (exit 2); on a terminal the warning is shown and the run
 * goes on, its budget still stopping new trials once spent.
 */
export async function checkEstimatedBudget(plan: EstimatePlan, budget: number, opts: { from: string | undefined; force: boolean; cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const { estimate, text } = await estimatePlan(plan, opts.from, opts.cwd);
  const usd = estimatedUsd(estimate);
  if (usd <= budget) return;
  const over = `the estimated cost of this run, ${usdText(usd)}, is above the budget of ${usdText(budget)}`;
  if (opts.force) {
    process.stderr.write(`agent-evals: --max-cost: ${over}; running it anyway (--force)\n`);
    return;
  }
  if (opts.env.CI) throw new UserError(`${over}; in CI such a run does not start without --force (the estimate: \`agent-evals run --estimate\`)\n${text}`, { field: '--max-cost' });
  process.stderr.write(`agent-evals: --max-cost: ${over}: running it, its budget stops new trials once spent (add --force to skip this warning)\n${text}`);
}

/** A case's `similarTo` assertions that spend, as the estimate counts them. */
function plannedEmbeddings(c: PlannedCase, configModel: string | undefined): PlannedEmbedding[] {
  return spendingSimilarTo(c, configModel).map(({ spec, model }) => ({ model, value: spec.value, ...(spec.dimensions !== undefined ? { dimensions: spec.dimensions } : {}) }));
}
