/**
 * The run loop's public face: what the front door (runner/start-run.ts) and the runner's features
 * (rejudge, resume, shards, calibrate) use of it. They import it from here, never a module of this
 * folder (the `runner-public-face` rule in .dependency-cruiser.cjs), so the loop's own modules can
 * change shape behind it.
 */
export { executeRun, type ExecuteOptions, type RunOutcome } from './execute-run.js';
export { BUDGET_FAILURE, exitCodeFor, runGateFailures } from './exit-code.js';
export type { PriorCase, PriorTrials } from './prior-trials.js';
export { retiredModelWarnings } from './retired-models.js';
export { runIdAt } from './run-id.js';
export type { RunSettings } from './settings.js';
export type { StopReason } from './stop-reason.js';
export { SummaryBuilder } from './summary.js';
export { isJudgeErrorTrial, trialScore, trialVerdict } from './verdict.js';
