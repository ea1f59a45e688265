import type { Reporter } from './reporter.js';
import { writeAtomic } from './atomic-write.js';
import { failureLines } from './failure-lines.js';

/** XML text: escapes markup and drops characters XML 1.0 cannot carry (agent text is untrusted). */
export function xmlEscape(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

interface Row {
  suite: string;
  id: string;
  file: string;
  verdict: string;
  seconds: number;
  detail: string;
  failure: string[];
}

/**
 * JUnit XML for CI test panels: a testsuite per suite, a testcase per case. Only a short row per
 * case is kept until the end, never the trials.
 */
export function junitReporter(opts: { path: string }): Reporter {
  const rows: Row[] = [];
  return {
    onCaseEnd(r) {
      rows.push({
        suite: r.suite,
        id: r.id,
        file: r.file,
        verdict: r.verdict,
        seconds: r.trials.reduce((s, t) => s + t.durationMs, 0) / 1000,
        detail: `passed ${r.passed}/${r.planned} (needed ${r.required}), score ${r.score.mean.toFixed(3)} ±${r.score.stddev.toFixed(3)}`,
        failure: r.verdict === 'failed' || r.verdict === 'scored' ? failureLines(r) : [],
      });
    },
    async onEnd({ summary, run }) {
      const suites = new Map<string, Row[]>();
      for (const row of rows) suites.set(row.suite, [...(suites.get(row.suite) ?? []), row]);
      await writeAtomic(opts.path, async (write) => {
        await write('<?xml version="1.0" encoding="UTF-8"?>\n');
        await write(
          `<testsuites name="agent-evals" tests="${summary.cases.total}" failures="${summary.cases.failed + summary.cases.scored}" skipped="${summary.cases.skipped}" time="${(run.durationMs / 1000).toFixed(3)}">\n`,
        );
        for (const [suite, list] of suites) {
          const failures = list.filter((r) => r.verdict === 'failed' || r.verdict === 'scored').length;
          const skipped = list.filter((r) => r.verdict === 'skipped').length;
          const time = list.reduce((s, r) => s + r.seconds, 0);
          await write(`  <testsuite name="${xmlEscape(suite)}" tests="${list.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">\n`);
          for (const r of list) {
            await write(`    <testcase classname="${xmlEscape(suite)}" name="${xmlEscape(r.id)}" file="${xmlEscape(r.file)}" time="${r.seconds.toFixed(3)}">`);
            if (r.verdict === 'skipped') await write('<skipped/>');
            if (r.failure.length) {
              const type = r.verdict === 'scored' ? 'scored' : 'failed';
              await write(`\n      <failure type="${type}" message="${xmlEscape(`${r.detail}`)}">${xmlEscape(r.failure.join('\n'))}</failure>\n    `);
            }
            await write(`<system-out>${xmlEscape(r.detail)}</system-out></testcase>\n`);
          }
          await write('  </testsuite>\n');
        }
        await write('</testsuites>\n');
      });
    },
  };
}
