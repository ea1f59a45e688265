import { resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { checkOutputs } from './output-check.js';
import { reporterOutputs, type ReporterContext } from './reporters.js';
import { writesResults } from './run-base.js';
import { RESULTS_FILE, RESULTS_REPORTER } from '../report/registry.js';

/** The results document a run leaves though no reporter asked for it: the json reporter at its default path. */
const DEFAULT_RESULTS = RESULTS_REPORTER;

/** The path of that document (`<outputDir>/results.json`): written quietly, named by no `wrote` line. */
export function defaultResultsPath(outputDir: string): string {
  return resolve(outputDir, RESULTS_FILE);
}

/**
 * The reporter spec of the results document every `run` leaves, so `--resume`, `--last-failed`,
 * `--retry-errors` (and `--estimate`) find the last run without anyone thinking ahead; undefined
 * when a reporter already writes one, when the config's `results: false` or `--no-results` opts out,
 * and for a dry run (its placeholder replies are no record of the agent). The user did not ask for
 * this file: an outputDir it cannot be written to skips it with a note on stderr, never fails the run.
 */
export async function defaultResultsSpec(
  specs: readonly string[],
  opts: { results: boolean; flags: { results?: boolean; json?: string | true; dryRun?: boolean }; ctx: ReporterContext; configFile: string | null; note(line: string): void },
): Promise<string | undefined> {
  if (opts.flags.results === false && opts.flags.json !== undefined) throw new UserError('--no-results and --json contradict each other: give one', { field: '--no-results' });
  if (!opts.results || opts.flags.results === false || opts.flags.dryRun || writesResults(specs)) return undefined;
  try {
    await checkOutputs(reporterOutputs([DEFAULT_RESULTS], opts.ctx), opts.configFile);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    opts.note(`no results document this run (--resume and --last-failed will not see it): ${err.message}; \`results: false\` in the config skips it without this note`);
    return undefined;
  }
  return DEFAULT_RESULTS;
}
