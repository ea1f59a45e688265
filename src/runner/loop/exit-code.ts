import type { Summary } from '../../core/results-schema.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** Exit code: 130 interrupted; 1 a failed case (scored too with --strict) or a failed run gate. */
export function exitCodeFor(summary: Summary, opts: { strict: boolean; interrupted: boolean }): number {
  if (opts.interrupted) return EXIT.interrupted;
  if (summary.cases.failed > 0) return EXIT.failed;
  if (opts.strict && summary.cases.scored > 0) return EXIT.failed;
  if (summary.failures.length > 0) return EXIT.failed;
  return EXIT.ok;
}

/**
 * A run whose cases all passed but an output was not written (a reporter or a teardown step that
 * writes failed) is exit 2, like an output found unwritable before the first trial: exit 1 stays
 * reserved for cases and gates, and 130 for an interrupt.
 */
export function withOutputs(code: number, outputFailed: boolean): number {
  return code === EXIT.ok && outputFailed ? EXIT.usage : code;
}

/** How a run's budget stop begins in the summary's failures (`merge` keeps a shard's). */
export const BUDGET_FAILURE = 'cost budget of';

/** Run-level gates: each miss is a sentence for the summary. */
export function runGateFailures(summary: Pick<Summary, 'score' | 'trials' | 'cases'>, gates: { minScore?: number; minPassRate?: number; failOnFlaky?: boolean }): string[] {
  const out: string[] = [];
  if (gates.minScore !== undefined && summary.score.mean < gates.minScore) {
    out.push(`mean score ${summary.score.mean.toFixed(3)} is below --min-score ${gates.minScore}`);
  }
  if (gates.minPassRate !== undefined) {
    const rate = summary.trials.run === 0 ? 0 : summary.trials.passed / summary.trials.run;
    if (rate < gates.minPassRate) out.push(`trial pass rate ${rate.toFixed(3)} is below --min-pass-rate ${gates.minPassRate}`);
  }
  const flaky = summary.cases.flaky ?? 0;
  if (gates.failOnFlaky && flaky > 0) out.push(`${flaky} flaky case${flaky === 1 ? '' : 's'} (both passing and failing trials) fail the run: --fail-on-flaky (or failOnFlaky in the config)`);
  return out;
}
