import { judgeNoiseLines, WITHIN_JUDGE_NOISE } from './judge-noise-lines.js';
import { reducerNote } from '../core/reducer-note.js';
import { adaptiveNote, trialsOutOf } from './adaptive-lines.js';
import type { Reporter } from './reporter.js';
import { writeAtomic } from './atomic-write.js';
import { failureLines } from './failure-lines.js';
import { toolTapeLines } from './tool-tape-lines.js';
import { toolResultsLines } from './tool-results-lines.js';
import { CHANGE_LEGEND, KIND_LABEL, agentEffectDetail, changeDetail, comparisonHeadline, judgeEffectDetail, needsLegend, rejudgeSpend } from './comparison-lines.js';
import { caseKey, matrixSuffix } from '../core/matrix.js';
import type { BuiltInReporterOptions } from './descriptor.js';
import { panelAgreementLines } from './panel-lines.js';
import { allowlistLines } from './allowlist-lines.js';

/** XML text: escapes markup and drops characters XML 1.0 cannot carry (agent text is untrusted). */
export function xmlEscape(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the class names the control characters XML 1.0 allows (tab, LF, CR) to keep them
      .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

interface Row {
  /** The case's place in the plan: rows arrive as cases finish, the file lists them as planned. */
  index: number;
  suite: string;
  id: string;
  file: string;
  verdict: string;
  seconds: number;
  detail: string;
  /** Why the case did not pass: a `<failure>` when it fails the run, else `<system-out>` only. */
  misses: string[];
  /** Where its trials left the tool tape (`--replay-tools`), in `<system-out>`. */
  tape: string[];
  /** The case's `toolResults` entries no call reached, in `<system-out>`. */
  unserved: string[];
  failed: boolean;
}

/**
 * JUnit XML for CI test panels: a testsuite per suite, a testcase per case. Only a short row per
 * case is kept until the end, never the trials. A `scored` case is a failure only in a strict run,
 * so the panel agrees with the exit code; otherwise it passes with a `verdict` property and its
 * misses in `<system-out>`.
 */
export function junitReporter(opts: { path: string }): Reporter {
  const rows: Row[] = [];
  let strict = false;
  let written = false;
  return {
    written: () => (written ? [opts.path] : []),
    onBegin(info) {
      strict = info.strict;
    },
    onCaseEnd(r, c) {
      rows.push({
        index: c.index,
        suite: r.suite,
        // A matrix case's name carries its value, so each variant is its own testcase.
        id: r.id + matrixSuffix(r.matrix),
        file: r.file,
        verdict: r.verdict,
        seconds: r.trials.reduce((s, t) => s + t.durationMs, 0) / 1000,
        detail: `passed ${r.passed}/${trialsOutOf(r)} (needed ${r.required}), score ${r.score.mean.toFixed(3)} ±${r.score.stddev.toFixed(3)}${r.adaptive ? `, ${adaptiveNote(r.adaptive)}` : ''}${r.reducer ? `, ${reducerNote(r.reducer)}` : ''}${r.judgeNoise?.withinNoise ? `, ${WITHIN_JUDGE_NOISE}` : ''}`,
        misses: r.verdict === 'failed' || r.verdict === 'scored' ? [...failureLines(r), ...(r.judgeNoise ? judgeNoiseLines(r.judgeNoise) : [])] : [],
        tape: toolTapeLines(r),
        unserved: toolResultsLines(r),
        failed: r.verdict === 'failed' || (strict && r.verdict === 'scored'),
      });
    },
    async onEnd({ summary, run, comparison }) {
      const suites = new Map<string, Row[]>();
      for (const row of rows.sort((a, b) => a.index - b.index)) suites.set(row.suite, [...(suites.get(row.suite) ?? []), row]);
      // A compared run: each moved case carries its change as a property, each suite the headline.
      const changes = new Map((comparison?.cases ?? []).map((c) => [c.key, c]));
      const comparisonProps: Array<[string, string]> = comparison
        ? [
            ['baseline', comparison.baseline],
            ['comparison', comparisonHeadline(comparison)],
            ...(needsLegend(comparison) ? [['comparison-legend', CHANGE_LEGEND] as [string, string]] : []),
            ...(rejudgeSpend(comparison) ? [['rejudge-usage', rejudgeSpend(comparison)!] as [string, string]] : []),
          ]
        : [];
      // Each judge panel's agreement is the run's: every suite carries it, as the terminal's summary does.
      const panelProps = panelAgreementLines(summary.panels ?? []).map((line): [string, string] => ['judge-panel', line]);
      // Tools called outside an allowlist: each suite names its own cases (tool names are the agent's text, escaped).
      const outsideProps = (keys: Set<string>) =>
        allowlistLines({
          toolsOutsideAllowlist: (summary.toolsOutsideAllowlist ?? []).map((o) => ({ tool: o.tool, cases: o.cases.filter((k) => keys.has(k)) })).filter((o) => o.cases.length),
        }).map((line): [string, string] => ['outside-allowlist', line]);
      const suiteProps = (list: Row[]) => {
        const props = [...comparisonProps, ...panelProps, ...outsideProps(new Set(list.map(caseKey)))];
        return props.length ? `    <properties>${props.map(([name, value]) => `<property name="${name}" value="${xmlEscape(value)}"/>`).join('')}</properties>\n` : '';
      };
      await writeAtomic(opts.path, (write) => {
        write('<?xml version="1.0" encoding="UTF-8"?>\n');
        // A run-level failure (a gate, a spent budget, too many regressions) fails the job with every
        // case passed: it is one failed testcase of its own, so a JUnit view is red when the exit code is.
        const runFailed = summary.failures.length > 0 ? 1 : 0;
        write(
          `<testsuites name="agent-evals" tests="${summary.cases.total + runFailed}" failures="${rows.filter((r) => r.failed).length + runFailed}" skipped="${summary.cases.skipped}" time="${(run.durationMs / 1000).toFixed(3)}">\n`,
        );
        if (runFailed) {
          write(`  <testsuite name="${RUN_SUITE}" tests="1" failures="1" skipped="0" time="0.000">\n`);
          write(`    <testcase classname="${RUN_SUITE}" name="run" time="0.000">\n`);
          write(`      <failure type="run" message="${xmlEscape(summary.failures.join('; '))}">${xmlEscape(summary.failures.join('\n'))}</failure>\n    </testcase>\n  </testsuite>\n`);
        }
        for (const [suite, list] of suites) {
          const failures = list.filter((r) => r.failed).length;
          const skipped = list.filter((r) => r.verdict === 'skipped').length;
          const time = list.reduce((s, r) => s + r.seconds, 0);
          write(`  <testsuite name="${xmlEscape(suite)}" tests="${list.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">\n${suiteProps(list)}`);
          for (const r of list) {
            write(`    <testcase classname="${xmlEscape(suite)}" name="${xmlEscape(r.id)}" file="${xmlEscape(r.file)}" time="${r.seconds.toFixed(3)}">`);
            const change = changes.get(caseKey(r));
            const props = [
              ...(r.verdict === 'scored' ? ['<property name="verdict" value="scored"/>'] : []),
              ...(change ? [`<property name="comparison" value="${xmlEscape(`${KIND_LABEL[change.kind]}: ${changeDetail(change)}`)}"/>`] : []),
              // Under --rejudge each effect on its own too, for a CI view that reads one property.
              ...(change?.judgeEffect
                ? [
                    `<property name="agent-effect" value="${xmlEscape(`${KIND_LABEL[change.kind]}: ${agentEffectDetail(change)}`)}"/>`,
                    `<property name="judge-effect" value="${xmlEscape(judgeEffectDetail(change.judgeEffect))}"/>`,
                  ]
                : []),
            ];
            if (props.length) write(`\n      <properties>${props.join('')}</properties>\n    `);
            if (r.verdict === 'skipped') write('<skipped/>');
            if (r.failed) {
              write(`\n      <failure type="${r.verdict}" message="${xmlEscape(r.detail)}">${xmlEscape(r.misses.join('\n'))}</failure>\n    `);
            }
            const out = [r.detail, ...(r.failed ? [] : r.misses), ...r.tape, ...r.unserved].join('\n');
            write(`<system-out>${xmlEscape(out)}</system-out></testcase>\n`);
          }
          write('  </testsuite>\n');
        }
        write('</testsuites>\n');
      });
      written = true;
    },
  };
}

/** The suite of the run-level failures' testcase (a case's suite name never holds a space). */
const RUN_SUITE = 'agent-evals run';

/** The `junit` reporter. */
export function create(o: BuiltInReporterOptions): Reporter {
  return junitReporter({ path: o.path! });
}
