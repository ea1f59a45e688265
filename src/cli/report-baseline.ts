import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import type { Results } from '../core/results-schema.js';
import type { BaselineView } from '../report/baseline-view.js';
import { resolveBaseline } from './baseline-file.js';

/**
 * `agent-evals report`: the baseline's side of a compared run's moved cases (the page's Before and
 * after), read from the baseline file: `--baseline <file>` when given, else the comparison's own, found
 * as `compare` finds it (a name is `.agent-evals/baselines/<name>.json`). The comparison's own file may
 * be long gone (the page says so); one named on the command line that cannot be shown is bad input.
 */
export async function reportBaseline(head: Pick<Results, 'comparison' | 'run'>, flag: string | undefined, cwd: string): Promise<BaselineView | undefined> {
  const cmp = head.comparison;
  if (!cmp) {
    if (flag !== undefined) throw new UserError('the results were not compared with a baseline: there is no Before and after to show', { field: '--baseline' });
    return undefined;
  }
  const file = resolveBaseline(flag ?? cmp.baseline, join(cwd, '.agent-evals'), cwd);
  const { readBaselineView } = await import('../report/baseline-view.js');
  const view = await readBaselineView(file, cmp, head.run.trace, cwd);
  if (flag !== undefined && view?.missing) throw new UserError(view.missing, { field: '--baseline' });
  return view;
}
