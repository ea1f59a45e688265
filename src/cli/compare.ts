import { join } from 'node:path';
import { caseKey } from '../core/matrix.js';
import type { Command } from 'commander';
import { addCompareOptions, compareOptions, type CompareFlags } from './compare-options.js';
import { checkSharesCases, loadComparable, resolveBaseline } from './baseline-file.js';

/** `agent-evals compare base.json head.json`: two results files, compared without running anything. */
export function registerCompare(program: Command): void {
  addCompareOptions(
    program
      .command('compare')
      .description('compare two results files case by case: regressions with p-values, improvements, changed, new and removed cases (exit 0 ok, 1 too many regressions, 2 bad input)')
      .argument('<base>', 'the baseline: a results file, or the name of a saved baseline (.agent-evals/baselines/<name>.json)')
      .argument('<head>', 'the results file to compare with it'),
  ).action(async (baseArg: string, headArg: string, flags: CompareFlags) => {
    const cwd = process.cwd();
    // No config is read: a name means the default output folder's saved baseline.
    const outputDir = join(cwd, '.agent-evals');
    const basePath = resolveBaseline(baseArg, outputDir, cwd);
    const base = await loadComparable(basePath, cwd, '<base>');
    const head = await loadComparable(resolveBaseline(headArg, outputDir, cwd), cwd, '<head>');
    checkSharesCases(base, head.cases.map(caseKey), { path: basePath, cwd, flag: '<base>', head: '<head>' });
    const [{ compareRuns }, { comparisonFailure, comparisonTerminalLines }, { terminalSafe }] = await Promise.all([
      import('../stats/compare-runs.js'),
      import('../report/comparison-lines.js'),
      import('../report/sanitize.js'),
    ]);
    const comparison = compareRuns(base.cases, head.cases, compareOptions(flags, baseArg, base));
    const lines = comparisonTerminalLines(comparison).slice(1);
    if (comparison.failed) lines.push(`✗ ${terminalSafe(comparisonFailure(comparison))}`);
    process.stdout.write(lines.join('\n') + '\n');
    process.exitCode = comparison.failed ? 1 : 0;
  });
}
