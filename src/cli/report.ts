import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ResultsSchema } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import { digestCase } from '../core/trace-digest.js';
import { readResultsFile } from './results-file.js';
import { resolveBaseline } from './baseline-file.js';
import { wroteLine } from '../report/wrote-lines.js';

/** `agent-evals report results.json -o report.html`: the HTML report of a results file, nothing run. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write the self-contained HTML report of a results file (exit 0 written, 2 bad input)')
    .argument('<results>', 'a results file (results.json)')
    .option('-o, --output <file>', 'the HTML file to write', 'report.html')
    .option('--baseline <file>', "a compared run's baseline, for the Before and after section (default: the comparison's own, a name meaning .agent-evals/baselines/<name>.json)")
    .action(async (resultsArg: string, flags: { output: string; baseline?: string }) => {
      const cwd = process.cwd();
      const { cases, ...head } = await readResultsFile(resolve(cwd, resultsArg), cwd, '<results>', ResultsSchema);
      const { writeHtmlReport } = await import('../report/html-page.js');
      const out = resolve(cwd, flags.output);
      // A compared run: the baseline's side of its moved cases, read from the baseline file as `compare` finds it.
      const cmp = head.comparison;
      const baselineFile = cmp ? resolveBaseline(flags.baseline ?? cmp.baseline, join(cwd, '.agent-evals'), cwd) : undefined;
      const baseline = cmp ? await (await import('../report/baseline-view.js')).readBaselineView(baselineFile, cmp, head.run.trace, cwd) : undefined;
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
