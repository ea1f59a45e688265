import { judgeNoiseLines, WITHIN_JUDGE_NOISE } from './judge-noise-lines.js';
import { reducerNote } from '../core/reducer-note.js';
import { adaptiveNote, trialsOutOf } from './adaptive-lines.js';
import { appendFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Reporter } from './reporter.js';
import { failureLines, scoredNote } from './failure-lines.js';
import { toolTapeLines } from './tool-tape-lines.js';
import { formatUsage } from './format.js';
import { terminalSafe } from './sanitize.js';
import { flakyNote, judgeErrorsNote } from './pass-rate-lines.js';
import { allowlistLines } from './allowlist-lines.js';
import { panelAgreementLines } from './panel-lines.js';
import { CHANGE_LEGEND, KIND_LABEL, agentEffectDetail, changeDetail, comparisonHeadline, judgeEffectDetail, needsLegend, rejudgeSpend } from './comparison-lines.js';
import type { Comparison } from '../core/results-schema.js';
import { caseKey } from '../core/matrix.js';
import { matrixMarkdown } from './matrix-lines.js';
import { coalescedOutput, stdoutIsLive } from './coalesced-output.js';
import type { BuiltInReporterOptions } from './descriptor.js';

/**
 * Workflow-command data: control and bidi characters made visible, `%`, CR and LF escaped, so
 * untrusted text can neither start a new command nor restyle or reorder the log.
 */
export function ghData(text: string): string {
  return terminalSafe(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow-command property values also escape `:` and `,`. */
export function ghProperty(text: string): string {
  return ghData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Markdown table cell text: no markup, no HTML, no line breaks. */
export function mdCell(text: string): string {
  return terminalSafe(text.replace(/\s+/g, ' ')).replace(/[\\`*_{}[\]()<>#+!|~]/g, (ch) => `\\${ch}`);
}

/**
 * The path GitHub annotates: relative to the checkout (`workspace`, from GITHUB_WORKSPACE), so a job
 * with a `working-directory:` still names the right file; else the case's own (cwd-relative) path,
 * as it is for a file outside the checkout.
 */
export function annotationPath(file: string, where: { cwd: string; workspace: string | undefined }): string {
  if (!where.workspace) return file;
  const rel = relative(where.workspace, resolve(where.cwd, file));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return file;
  return rel.split(sep).join('/');
}

/**
 * GitHub Actions: an `::error` annotation per failing case at its file and line (a `scored` case is
 * a `::warning` unless the run is strict, as in the exit code), and a Markdown summary appended to
 * $GITHUB_STEP_SUMMARY when that file is given.
 */
export function githubReporter(opts: {
  out: { write(text: string): unknown };
  summaryFile: string | undefined;
  /** Where annotation paths are relative to (see `annotationPath`); the cwd when omitted. */
  paths?: { cwd: string; workspace: string | undefined };
}): Reporter {
  const failing: Array<{ key: string; verdict: string; detail: string }> = [];
  let strict = false;
  const flaky: string[] = [];
  const diverged: Array<{ key: string; line: string }> = [];
  let appended = false;
  return {
    written: () => (appended && opts.summaryFile ? [opts.summaryFile] : []),
    onBegin(info) {
      strict = info.strict;
    },
    onCaseEnd(r) {
      if (r.flaky) flaky.push(caseKey(r));
      const tape = toolTapeLines(r);
      for (const line of tape) diverged.push({ key: caseKey(r), line });
      if (r.verdict !== 'failed' && r.verdict !== 'scored') {
        // A passing case that left the tape is a notice: some of its tools ran live.
        if (tape.length)
          opts.out.write(
            `::notice ${[`file=${ghProperty(opts.paths ? annotationPath(r.file, opts.paths) : r.file)}`, `title=${ghProperty(`${caseKey(r)} left the tool tape`)}`].join(',')}::${ghData(tape.join('\n'))}\n`,
          );
        return;
      }
      const key = caseKey(r);
      const level = r.verdict === 'failed' || strict ? 'error' : 'warning';
      const props = [
        `file=${ghProperty(opts.paths ? annotationPath(r.file, opts.paths) : r.file)}`,
        ...(r.line ? [`line=${r.line}`] : []),
        `title=${ghProperty(`${key} ${r.verdict} ${r.passed}/${trialsOutOf(r)} (needed ${r.required})${r.adaptive ? `, ${adaptiveNote(r.adaptive)}` : ''}${r.reducer ? `, ${reducerNote(r.reducer)}` : ''}${r.judgeNoise?.withinNoise ? `, ${WITHIN_JUDGE_NOISE}` : ''}`)}`,
      ];
      const lines = [...failureLines(r, 5), ...(r.judgeNoise ? judgeNoiseLines(r.judgeNoise) : [])];
      opts.out.write(`::${level} ${props.join(',')}::${ghData(lines.join('\n'))}\n`);
      failing.push({ key, verdict: r.verdict, detail: lines[0] ?? '' });
    },
    async onEnd({ summary, exitCode, comparison }) {
      // A run-level failure (a gate, a spent budget, too many regressions) fails the job with no case
      // to annotate: one file-less annotation each, so the job's annotations say why.
      for (const f of summary.failures) opts.out.write(`::error title=${ghProperty('agent-evals run failed')}::${ghData(f)}\n`);
      if (!opts.summaryFile) return;
      const c = summary.cases;
      const u = summary.usage;
      // The simulated user's column only when a case had one (its usage role is absent otherwise).
      const user = u.user ? [u.user] : [];
      const md = [
        `### agent-evals: ${exitCode === 0 ? '✅' : '❌'} ${c.passed}/${c.total} cases passed`,
        '',
        `| cases | passed | failed | scored | skipped | trials run | score | target | judge |${user.map(() => ' simulated user |').join('')}`,
        `| --- | --- | --- | --- | --- | --- | --- | --- | --- |${user.map(() => ' --- |').join('')}`,
        `| ${c.total} | ${c.passed} | ${c.failed} | ${c.scored} | ${c.skipped} | ${summary.trials.run}/${summary.trials.planned} | ${summary.score.mean.toFixed(2)} | ${[u.target, u.judge, ...user].map(formatUsage).join(' | ')} |`,
        ...(failing.length
          ? ['', '| case | verdict | first failure |', '| --- | --- | --- |', ...failing.slice(0, 50).map((f) => `| ${mdCell(f.key)} | ${f.verdict} | ${mdCell(f.detail.slice(0, 600))} |`)]
          : []),
        ...summary.failures.flatMap((f) => ['', `**Run failed:** ${mdCell(f)}`]),
        ...(c.scored ? ['', scoredNote(c.scored, strict)] : []),
        ...(flaky.length ? ['', mdCell(flakyNote(flaky))] : []),
        ...(diverged.length ? ['', '| case | tool tape |', '| --- | --- |', ...diverged.slice(0, 50).map((d) => `| ${mdCell(d.key)} | ${mdCell(d.line)} |`)] : []),
        ...(summary.trials.judgeErrors ? ['', `**Judge errors:** ${mdCell(judgeErrorsNote(summary.trials.judgeErrors))}`] : []),
        ...allowlistLines(summary).flatMap((line) => ['', mdCell(line)]),
        ...panelAgreementLines(summary.panels ?? []).flatMap((line) => ['', `**Judge panel:** ${mdCell(line)}`]),
        ...(summary.matrix ?? []).flatMap((t) => matrixMarkdown(t, mdCell)),
        ...(comparison ? comparisonMarkdown(comparison) : []),
        '',
      ].join('\n');
      await appendFile(opts.summaryFile, md);
      appended = true;
    },
  };
}

/** The comparison as Markdown for the GitHub step summary: every moved case in a table. */
export function comparisonMarkdown(c: Comparison, limit = 100): string[] {
  return [
    '',
    `#### Compared with baseline ${mdCell(c.baseline)}: ${c.failed ? '❌' : '✅'} ${mdCell(comparisonHeadline(c))}`,
    ...(c.cases.length && c.rejudge
      ? [
          '',
          '| case | agent effect | detail | judge effect (not counted) |',
          '| --- | --- | --- | --- |',
          ...c.cases
            .slice(0, limit)
            .map((x) => `| ${mdCell(x.key)} | ${mdCell(KIND_LABEL[x.kind])} | ${mdCell(agentEffectDetail(x))} | ${mdCell(x.judgeEffect ? judgeEffectDetail(x.judgeEffect) : '')} |`),
        ]
      : c.cases.length
        ? ['', '| case | change | detail |', '| --- | --- | --- |', ...c.cases.slice(0, limit).map((x) => `| ${mdCell(x.key)} | ${mdCell(KIND_LABEL[x.kind])} | ${mdCell(changeDetail(x))} |`)]
        : []),
    ...(needsLegend(c) ? ['', `_How a case is classified: ${mdCell(CHANGE_LEGEND)}._`] : []),
    ...(rejudgeSpend(c) ? ['', `Re-judge: ${mdCell(rejudgeSpend(c)!)}`] : []),
    ...c.warnings.map((w) => `\n> ${mdCell(w)}`),
  ];
}

/** The `github` reporter on stdout; its summary goes to `=path`, else to $GITHUB_STEP_SUMMARY. */
export function create(o: BuiltInReporterOptions): Reporter {
  // Off a TTY its annotations join the terminal's coalesced text, in the order both wrote them.
  const out = stdoutIsLive() ? undefined : coalescedOutput(process.stdout);
  const made = githubReporter({ out: out ?? process.stdout, summaryFile: o.path, paths: { cwd: o.cwd, workspace: process.env.GITHUB_WORKSPACE || undefined } });
  const reporter: Reporter = out
    ? {
        ...made,
        onEnd(info) {
          out.flush();
          return made.onEnd!(info);
        },
      }
    : made;
  // The job summary GitHub hands out is not a file of the user's: only a named one is announced.
  return o.pathGiven ? reporter : { ...reporter, written: () => [] };
}
