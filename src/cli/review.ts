import { existsSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import type { ReviewLabel } from '../report/review-items.js';
import type { StoredLabels } from '../report/review-server.js';
import { listenFailure, portArg, untilStopped } from './local-serve.js';

/**
 * `agent-evals review results.json`: serves a page on 127.0.0.1, under a random token, where a human
 * labels each trial pass/fail and scores it; every label is saved at once to a JSONL labels file that
 * `agent-evals calibrate` reads. Ctrl-C stops the server (exit 0: the labels are already saved).
 */
export function registerReview(program: Command): void {
  program
    .command('review')
    .description('label the trials of a results file by hand, in the browser, for `calibrate` (Ctrl-C to stop; exit 0 stopped, 2 bad input)')
    .argument('<results>', 'a results file (results.json)')
    .option('--labels <file>', 'the labels file (.jsonl) to resume and write (default: labels.jsonl beside the results file)')
    .option('--port <n>', 'the port on 127.0.0.1 (default: any free port)', portArg)
    .action(async (resultsArg: string, flags: { labels?: string; port?: number }) => {
      const cwd = process.cwd();
      const resultsPath = resolve(cwd, resultsArg);
      const labelsPath = flags.labels !== undefined ? resolve(cwd, flags.labels) : join(dirname(resultsPath), 'labels.jsonl');
      const labelsShown = relative(cwd, labelsPath) || labelsPath;
      if (extname(labelsPath).toLowerCase() !== '.jsonl') throw new UserError('the labels file is JSONL: give a path ending in .jsonl', { file: labelsShown, field: '--labels' });
      if (labelsPath === resultsPath) throw new UserError('the labels file cannot be the results file', { file: labelsShown, field: '--labels' });
      const [{ readResultsFile }, { ResultsSchema }, { loadLabels }, { reviewItems }, { startReviewServer }] = await Promise.all([
        import('../suite/results-file.js'),
        import('../core/results-schema.js'),
        import('../suite/labels.js'),
        import('../report/review-items.js'),
        import('../report/review-server.js'),
      ]);
      const results = await readResultsFile(resultsPath, cwd, '<results>', ResultsSchema);
      const items = reviewItems(results);
      if (items.length === 0) throw new UserError('no trials to review', { file: relative(cwd, resultsPath) || resultsPath, field: '<results>' });

      // A resumed review: labels of these trials are shown again; rows naming other trials are kept as they are.
      // Read again before each write: another review of the same labels file may have saved labels since.
      const known = new Set(items.map((i) => i.id));
      const read = async (): Promise<StoredLabels> => {
        const labels = new Map<string, ReviewLabel>();
        const otherRows: object[] = [];
        if (!existsSync(labelsPath)) return { labels, otherRows };
        for (const { line: _line, ...row } of (await loadLabels(labelsPath, labelsShown)).rows) {
          if (known.has(row.id))
            labels.set(row.id, { ...(row.humanVerdict !== undefined ? { humanVerdict: row.humanVerdict } : {}), ...(row.humanScore !== undefined ? { humanScore: row.humanScore } : {}) });
          else otherRows.push(row);
        }
        return { labels, otherRows };
      };

      const server = await startReviewServer({ items, read, labelsPath, labelsShown, port: flags.port ?? 0 }).catch(listenFailure(flags.port));
      // The address holds the token: printed once, on stdout only.
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(`Reviewing ${items.length} trial${items.length === 1 ? '' : 's'} (${server.labelled()} labelled); labels go to ${labelsShown}. Ctrl-C to stop.\n`);
      await untilStopped();
      await server.close();
      process.stderr.write(`\nReview stopped: ${server.labelled()} of ${items.length} trials labelled in ${labelsShown}\n`);
    });
}
