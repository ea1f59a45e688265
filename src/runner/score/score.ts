import type { CaseResult, ScoredFrom } from '../../core/results-schema.js';
import { emptyUsage } from '../../core/usage.js';
import type { RecordedTrace } from '../../core/recorded-trace.js';
import type { Reporter } from '../../report/reporter.js';
import { inPlanOrder } from '../../report/plan-order.js';
import type { PlannedCase } from '../../suite/plan.js';
import { executeRun, type ExecuteOptions, type RunOutcome } from '../loop/index.js';
import { traceTarget } from './trace-target.js';

export interface ScoreOptions extends Omit<ExecuteOptions, 'replay'> {
  /** The scored cases (suite/score-plan.ts): one per (scoring, trace), one trial each. */
  cases: PlannedCase[];
  /** Each case's trace, by case key. */
  traces: ReadonlyMap<string, RecordedTrace>;
  /** What was scored: recorded in the document as `run.scoredFrom`. */
  scoredFrom: ScoredFrom;
}

export interface ScoreOutcome extends RunOutcome {
  /** The scored cases that failed (verdict `failed` for the agent, not only for a judge's error), by case key. */
  failed: string[];
}

/**
 * Grades recorded agent runs without calling any target: the normal run pipeline, with each case's
 * trace replayed in place of its target. Gates and TS checks run on the recorded reply and trajectory,
 * judged assertions are asked (judge cache, `--judge-batch`, `--max-cost` and `--judge-noise` apply),
 * and the reporters get a run marked `scoredFrom`. What the recorded agent spent stays in each trial's
 * trace; the trial's target usage is zero, as nothing was called (a score pays only its judges).
 */
export async function scoreTraces(opts: ScoreOptions): Promise<ScoreOutcome> {
  const { traces, scoredFrom, ...run } = opts;
  const targets = new Map(opts.cases.map((c) => [c.key, traceTarget(c.targetName, traces.get(c.key)!.run)]));
  const failed: string[] = [];
  const collector: Reporter = {
    name: 'score',
    onCaseEnd: (result: CaseResult, c) => {
      if (result.verdict === 'failed' && (result.judgeErrors ?? 0) < result.planned - result.notRun) failed.push(c.key);
    },
  };
  const outcome = await executeRun({
    ...run,
    // Every trace is scored: there is no verdict to stop early on within one trial, nor a second trial.
    settings: { ...opts.settings, earlyStop: false },
    // Cases end as their judges answer; they are reported in the order the traces were read.
    reporters: opts.reporters.map(inPlanOrder),
    rawReporters: [...(opts.rawReporters ?? []), collector],
    replay: {
      targetFor: (c) => targets.get(c.key)!,
      notRun: () => undefined,
      restore: (_c, trial) => ({ ...trial, usage: { ...trial.usage, target: emptyUsage() } }),
      scoredFrom,
    },
  });
  return { ...outcome, failed };
}
