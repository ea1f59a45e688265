import type { ReporterDescriptor } from './descriptor.js';
import { resultsReporterOf } from './reporter-spec.js';

/** The results document's file name under outputDir (the `json` reporter's default path). */
export const RESULTS_FILE = 'results.json';

/**
 * Every built-in reporter, in help order. Adding one is a module in this folder exporting
 * `create(options)` and one line here: the help, `--reporter` and config validation, default paths
 * and the reference docs derive from this list.
 */
export const REPORTERS = [
  { name: 'terminal', summary: 'progress, a line per case, failures and the summary on stdout (always, unless --silent)', load: () => import('./terminal.js') },
  { name: 'json', summary: 'the results document; cases stream to <outputDir>/runs/ meanwhile', file: { default: RESULTS_FILE }, usesOutputDir: true, results: true, load: () => import('./json.js') },
  { name: 'junit', summary: 'JUnit XML for CI test panels', file: { default: 'junit.xml' }, load: () => import('./junit.js') },
  { name: 'html', summary: 'a self-contained HTML report', file: { default: 'report.html' }, load: () => import('./html.js') },
  { name: 'github', summary: 'GitHub Actions annotations, and a Markdown job summary', file: { defaultFromEnv: 'GITHUB_STEP_SUMMARY' }, load: () => import('./github.js') },
] as const satisfies readonly ReporterDescriptor[];

/** The name of a built-in reporter. */
export type ReporterName = (typeof REPORTERS)[number]['name'];

/** The reporter that writes the results document (`json`). */
export const RESULTS_REPORTER: ReporterName = resultsReporterOf(REPORTERS);
