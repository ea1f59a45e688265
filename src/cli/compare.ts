import { join, resolve } from 'node:path';
import { caseKey } from '../core/matrix.js';
import type { Command } from 'commander';
import { addCompareOptions, compareOptions, type CompareFlags } from './compare-options.js';
import { checkSharesCases, loadComparable, loadRecorded, resolveBaseline } from './baseline-file.js';
import { UserError } from '../core/errors.js';
import { providerList } from '../providers/registry.js';
import type { CompareRejudgeFlags } from './compare-rejudge.js';
import type { Comparison } from '../core/results-schema.js';
import type { ComparableResults } from '../stats/compared-case.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';
import { checkOutputs } from './output-check.js';

interface CompareCliFlags extends CompareFlags, CompareRejudgeFlags {
  json?: string | true;
}

/** `agent-evals compare base.json head.json`: two results files, compared without running anything. */
export function registerCompare(program: Command): void {
  addCompareOptions(
    program
      .command('compare')
      .description('compare two results files case by case: regressions with p-values, improvements, changed, new and removed cases (exit 0 ok, 1 too many regressions, 2 bad input)')
      .argument('<base>', 'the baseline: a results file, or the name of a saved baseline (.agent-evals/baselines/<name>.json)')
      .argument('<head>', 'the results file to compare with it'),
  )
    .option('--judge <provider:model>', `with --rejudge: the judge that re-judges the baseline, as head was judged (provider: ${providerList()}; default: the config's judges)`)
    .option('-c, --config <path>', `with --rejudge: the config whose judges and cases re-judge the baseline (default: ${CONFIG_FILES_HELP})`)
    .option('--no-cache', 'with --rejudge: make every judge call anew')
    .option('--json [path]', "write the comparison as JSON (the results document's `comparison`) to path, or to stdout in place of the table")
    .action(async (baseArg: string, headArg: string, flags: CompareCliFlags, cmd: Command) => {
      const cwd = process.cwd();
      const orphan = (['judge', 'config'] as const).find((k) => flags[k] !== undefined) ?? (flags.cache === false ? 'no-cache' : undefined);
      if (orphan && !flags.rejudge) throw new UserError(`--${orphan} needs --rejudge: it chooses how the baseline is re-judged`);
      // No config is read (unless --rejudge asks for its judges): a name means the default output folder's saved baseline.
      const outputDir = join(cwd, '.agent-evals');
      const basePath = resolveBaseline(baseArg, outputDir, cwd);
      const headPath = resolveBaseline(headArg, outputDir, cwd);
      // A --json folder is bad input before anything is read or re-judged (a re-judge pays its judges).
      const jsonPath = typeof flags.json === 'string' ? resolve(cwd, flags.json) : undefined;
      if (jsonPath) await checkOutputs([{ path: jsonPath, kind: 'file', field: '--json' }], null);
      const shares = (base: ComparableResults, head: ComparableResults) => checkSharesCases(base, head.cases.map(caseKey), { path: basePath, cwd, flag: '<base>', head: '<head>' });
      const [{ compareRuns }, { comparisonFailure, comparisonTerminalLines }, { terminalSafe }] = await Promise.all([
        import('../stats/compare-runs.js'),
        import('../report/comparison-lines.js'),
        import('../report/sanitize.js'),
      ]);
      let comparison: Comparison | undefined;
      if (flags.rejudge) {
        // Every recorded trial of the baseline is re-judged: it is read in full.
        const [recorded, head] = [await loadRecorded(basePath, cwd, '<base>', baseArg), await loadComparable(headPath, cwd, '<head>', headArg)];
        shares(recorded, head);
        const { compareRejudged } = await import('./compare-rejudge.js');
        comparison = await compareRejudged({ recorded, baseArg, head, options: compareOptions(flags, baseArg, recorded, head) }, flags, cmd, cwd);
      } else {
        const [base, head] = [await loadComparable(basePath, cwd, '<base>', baseArg), await loadComparable(headPath, cwd, '<head>', headArg)];
        shares(base, head);
        comparison = compareRuns(base.cases, head.cases, compareOptions(flags, baseArg, base, head));
      }
      if (!comparison) {
        process.exitCode = 130;
        return;
      }
      if (flags.json !== undefined) {
        const text = JSON.stringify(comparison, null, 2) + '\n';
        if (jsonPath === undefined) process.stdout.write(text);
        else await (await import('../report/atomic-write.js')).writeAtomic(jsonPath, (write) => write(text));
      }
      if (flags.json !== true) {
        const lines = comparisonTerminalLines(comparison).slice(1);
        if (comparison.failed) lines.push(`✗ ${terminalSafe(comparisonFailure(comparison))}`);
        process.stdout.write(lines.join('\n') + '\n');
      }
      process.exitCode = comparison.failed ? 1 : 0;
    });
}
