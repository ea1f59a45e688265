import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ResultsSchema } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import { digestCase } from '../core/trace-digest.js';
import { readResultsFile } from '../suite/results-file.js';
import { UserError } from '../core/errors.js';
import { reportBaseline } from './report-baseline.js';
import { wroteLine } from '../report/wrote-lines.js';
import { checkOutputs } from './output-check.js';

/** `agent-evals report results.json -o report.html`: the HTML report of a results file, nothing run. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write the self-contained HTML report of a results file, or with --history the page of many runs (exit 0 written, 2 bad input)')
    .argument('<results...>', 'a results file (results.json); with --history, results files and folders (a folder: each runs/<id>/results.json, its .json files and those in its baselines folder)')
    .option('-o, --output <file>', 'the HTML file to write (default: report.html, with --history history.html)')
    .option('--history', 'one page over many runs: pass rate, score and cost per run, the cases that changed most, per-case sparklines')
    .option('--baseline <file>', "a compared run's baseline, for the page's Before and after (default: the comparison's own; a name is .agent-evals/baselines/<name>.json)")
    .action(async (resultsArgs: string[], flags: { output?: string; history?: boolean; baseline?: string }) => {
      const cwd = process.cwd();
      if (flags.history && flags.baseline !== undefined) throw new UserError('--baseline applies to the report of one run, not to --history', { field: '--baseline' });
      if (flags.history) return (await import('./report-history.js')).writeHistoryReport(resultsArgs, flags.output ?? 'history.html', cwd);
      if (resultsArgs.length > 1) throw new UserError(`one results file, not ${resultsArgs.length} (--history reads several)`, { field: '<results>' });
      const [resultsArg] = resultsArgs as [string];
      flags.output ??= 'report.html';
      const { cases, ...head } = await readResultsFile(resolve(cwd, resultsArg), cwd, '<results>', ResultsSchema);
      const { writeHtmlReport } = await import('../report/html-page.js');
      const out = resolve(cwd, flags.output);
      // A folder given as the page (`-o reports`) is bad input, not an internal error at the rename.
      await checkOutputs([{ path: out, kind: 'file', field: '--output' }], null);
      const baseline = await reportBaseline(head, flags.baseline, cwd);
      const page = await writeHtmlReport(
        out,
        head,
        // A file that does not say `trace: full` is shown as `safe` (the default): one written before
        // the policy reached the results holds raw tool data; a digest stays as it is.
        cases.map((c) => ({ json: JSON.stringify(head.run.trace === 'full' ? c : digestCase(c)), key: caseKey(c) })),
        undefined,
        { baseline },
      );
      process.stdout.write(`${wroteLine(out, cwd)}\n`);
      // Fields over the page's size limit were written to a folder beside it, which the page links to.
      if (page.filesDir) process.stdout.write(`${wroteLine(page.filesDir, cwd)}\n`);
    });
}
