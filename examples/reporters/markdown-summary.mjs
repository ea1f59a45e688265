// A reporter of your own: a small Markdown summary of a run.
//
//   npx agent-evals run --reporter ./examples/reporters/markdown-summary.mjs=summary.md
//
// or in evals.config.ts: `reporters: ['terminal', './reporters/markdown-summary.mjs=summary.md']`.
// The interface (apiVersion 1) is described in docs/guide/extending.md. It keeps one short row per
// case, never the trials, and writes the file once, at the end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MARK = { passed: 'pass', failed: 'FAIL', scored: 'scored', skipped: 'skipped' };

/** A table cell: one line, no pipe to break the row. */
const cell = (text) => String(text).replace(/\s+/g, ' ').replace(/\|/g, '\\|');

/** @type {import('agent-evals').ReporterModule} */
export default {
  apiVersion: 1,
  create({ path, outputDir }) {
    const file = path ?? join(outputDir, 'summary.md');
    const rows = [];
    let written = false;
    return {
      onCaseEnd(result) {
        const rate = result.planned > 0 ? `${result.passed}/${result.planned - result.notRun}` : '-';
        rows.push(`| ${cell(`${result.suite}/${result.id}`)} | ${MARK[result.verdict] ?? result.verdict} | ${rate} | ${result.score.mean.toFixed(2)} |`);
      },
      onEnd({ run, summary, exitCode }) {
        const { cases } = summary;
        const lines = [
          `# Eval run ${run.id}`,
          '',
          `${cases.passed} passed, ${cases.failed} failed, ${cases.scored} scored, ${cases.skipped} skipped of ${cases.total} cases; exit code ${exitCode}.`,
          '',
          '| Case | Verdict | Trials passed | Score |',
          '| --- | --- | --- | --- |',
          ...rows,
          ...(summary.failures.length > 0 ? ['', '## Run failures', '', ...summary.failures.map((f) => `- ${cell(f)}`)] : []),
          '',
        ];
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, lines.join('\n'));
        written = true;
      },
      // Lets the terminal name the file at the end of the run.
      written: () => (written ? [file] : []),
    };
  },
};
