import type { Command } from 'commander';
import { countOrZero, fraction } from './parse-number.js';
import type { CompareOptions } from '../stats/compare-runs.js';
import type { ComparableResults } from '../stats/compared-case.js';

/** The flags that set how a comparison counts, shared by `run --baseline` and `compare`. */
export interface CompareFlags {
  epsilon?: number;
  maxRegressions?: number;
  regressionAlpha?: number;
  rejudge?: boolean;
}

export const DEFAULT_EPSILON = 0.05;

export function addCompareOptions(cmd: Command): Command {
  return cmd
    .option('--epsilon <x>', `a mean-score drop larger than x is a regression (default ${DEFAULT_EPSILON})`, fraction)
    .option('--max-regressions <n>', 'regressions allowed before the comparison fails (default 0)', countOrZero)
    .option('--regression-alpha <a>', 'count only regressions whose one-sided p-value (Fisher on the pass rate; rank-sum on the trial scores when only the score moved) is below a', fraction)
    .option(
      '--rejudge',
      "re-judge the baseline's recorded trials with head's judges first (the config's, or --judge; no target called): only the agent effect counts, the judge effect is shown apart",
    );
}

/**
 * A side Ctrl-C cut short holds cases that did not run: they read `not-run`, compared with nothing, so
 * the comparison passes over them. Said under it, as the comparison would otherwise pass in silence.
 */
function cutShort(side: ComparableResults, name: string): string | undefined {
  if (!side.run?.interrupted) return undefined;
  return `${name} (run ${side.run.id}) was interrupted: its cases cut short read "not run" and are not compared; compare a finished run`;
}

export function compareOptions(flags: CompareFlags, baseline: string, base: ComparableResults, head?: ComparableResults): CompareOptions {
  const warnings = [cutShort(base, `the baseline ${baseline}`), head && cutShort(head, 'head')].filter((w): w is string => w !== undefined);
  return {
    baseline,
    ...(base.run ? { baseRun: { id: base.run.id, gitSha: base.run.gitSha, startedAt: base.run.startedAt } } : {}),
    epsilon: flags.epsilon ?? DEFAULT_EPSILON,
    maxRegressions: flags.maxRegressions ?? 0,
    ...(flags.regressionAlpha !== undefined ? { alpha: flags.regressionAlpha } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}
