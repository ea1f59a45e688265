import { caseKey } from '../core/matrix.js';
import type { Results } from '../core/results-schema.js';
import type { Reporter } from '../report/reporter.js';
import { comparableCase } from '../stats/compared-case.js';
import { caseJudges, type RejudgedBaseline } from '../stats/effects.js';
import { rejudgeRecorded, type RejudgeOptions } from './rejudge.js';

export interface RejudgedBaselineOutcome {
  /** What `compareEffects` compares head with. */
  baseline: RejudgedBaseline;
  /** Ctrl-C stopped the re-judge: nothing is compared. */
  interrupted: boolean;
}

/**
 * `--rejudge`: the baseline's recorded trials graded again by head's judges (the judges of `settings`),
 * no target called. Its own reporters are the caller's (none: the re-judged baseline is a step of the
 * comparison, not a run to report); what comes back is the baseline as recorded and as re-judged.
 */
export async function rejudgeBaseline(opts: Omit<RejudgeOptions, 'reporters'> & { reporters?: Reporter[] }): Promise<RejudgedBaselineOutcome> {
  const judgesByCase = new Map<string, string[]>();
  const collector: Reporter = { name: 'rejudge-judges', onCaseEnd: (result) => void judgesByCase.set(caseKey(result), caseJudges(result)) };
  // Its fault guard leaves with it: the run or comparison that follows is not this run's to guard.
  const outcome = await rejudgeRecorded({ ...opts, inProcess: true, reporters: [...(opts.reporters ?? []), collector] });
  const judges = [...new Set([...judgesByCase.values()].flat())].sort();
  return {
    baseline: {
      recorded: opts.recorded.cases.map(comparableCase),
      rejudged: outcome.cases,
      cannot: new Map(outcome.rejudgedFrom.cannotRejudge.map((x) => [x.key, x.message])),
      judges,
      judgesByCase,
    },
    interrupted: opts.interrupt.aborted,
  };
}

/** The recorded run a `--rejudge` baseline names, for the progress line. */
export function rejudgeLine(file: string, recorded: Results): string {
  return `re-judging ${file} (run ${recorded.run.id}, ${recorded.cases.length} case${recorded.cases.length === 1 ? '' : 's'}) with this run's judges: no target is called`;
}
