import type { Results } from '../../core/results-schema.js';
import { comparableCase } from '../../stats/compared-case.js';
import type { RejudgedBaseline } from '../../stats/effects.js';
import { rejudgeRecorded, type RejudgeOptions } from './rejudge.js';
import { formatUsage } from '../../report/format.js';

export interface RejudgedBaselineOutcome {
  /** What `compareEffects` compares head with. */
  baseline: RejudgedBaseline;
  /** Ctrl-C stopped the re-judge: nothing is compared. */
  interrupted: boolean;
  /** What the re-judge did and spent, in one line (its spend is also the comparison's `rejudge.usage`). */
  line: string;
}

/**
 * `--rejudge`: the baseline's recorded trials graded again by head's judges (the judges of `settings`),
 * no target called. It reports nothing (the re-judged baseline is a step of the comparison, not a run to
 * report; `agent-evals rejudge` writes one); what comes back is the baseline as recorded and as re-judged.
 */
export async function rejudgeBaseline(opts: Omit<RejudgeOptions, 'reporters'>): Promise<RejudgedBaselineOutcome> {
  // Its fault guard leaves with it: the run or comparison that follows is not this run's to guard. It
  // writes no results, so no raw trials either (the run's own raw-trials reporter is the run's).
  const outcome = await rejudgeRecorded({ ...opts, inProcess: true, reporters: [], rawReporters: [] });
  return {
    baseline: {
      recorded: opts.recorded.cases.map(comparableCase),
      rejudged: outcome.cases,
      cannot: new Map(outcome.rejudgedFrom.cannotRejudge.map((x) => [x.key, x.message])),
      usage: outcome.summary.usage.judge,
    },
    interrupted: opts.interrupt.aborted,
    line: `re-judged ${opts.file}: ${n(outcome.cases.length, 'case')} (${n(outcome.rejudgedFrom.cannotRejudge.length, 'case')} could not be), judge ${n(outcome.summary.usage.judge.calls, 'call')} ${formatUsage(outcome.summary.usage.judge)}`,
  };
}

const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The recorded run a `--rejudge` baseline names, for the progress line. */
export function rejudgeLine(file: string, recorded: Results): string {
  return `re-judging ${file} (run ${recorded.run.id}, ${n(recorded.cases.length, 'case')}) with head's judges: no target is called`;
}
