import { allowlistLines } from './allowlist-lines.js';
import { panelAgreementLines, panelMemberLines } from './panel-lines.js';
import { judgeNoiseLines, WITHIN_JUDGE_NOISE } from './judge-noise-lines.js';
import { adaptiveNote, trialsOutOf } from './adaptive-lines.js';
import { reducerNote } from '../core/reducer-note.js';
import pc from 'picocolors';
import type { Reporter } from './reporter.js';
import type { AssertionResult, CaseResult } from '../core/results-schema.js';
import { formatCost, formatDuration, formatScore, formatTokens, formatUsage } from './format.js';
import { oneLine, terminalSafe } from './sanitize.js';
import { assertionText, scoredNote } from './failure-lines.js';
import { flakyNote, formatPassRate, judgeErrorsNote } from './pass-rate-lines.js';
import { toolTapeLines, toolTapeNote } from './tool-tape-lines.js';
import { toolResultsLines } from './tool-results-lines.js';
import { comparisonTerminalLines } from './comparison-lines.js';
import { caseKey } from '../core/matrix.js';
import { matrixTableLines } from './matrix-lines.js';
import { redteamLines } from './redteam-lines.js';
import type { BuiltInReporterOptions } from './descriptor.js';
import { coalescedOutput, stdoutIsLive } from './coalesced-output.js';
import { provenanceNote } from './provenance-note.js';
import { missedTrialLines } from './trial-lines.js';
import { WarningList } from './warning-list.js';
import { pushAll } from '../core/push-all.js';

export interface TerminalOptions {
  /** Where to write (the CLI passes process.stdout / stderr). */
  out: { write(text: string): unknown; isTTY?: boolean };
  /** Live progress line; on for a TTY outside CI. */
  live: boolean;
  verbose: boolean;
  now?: () => number;
  /**
   * Off a TTY (`live` false): write the text gathered, every 100 ms and at the end, not line by
   * line (coalesced-output.ts). The same text, in fewer writes.
   */
  coalesce?: boolean;
}

const MARK = { passed: pc.green('✓'), failed: pc.red('✗'), scored: pc.yellow('~'), skipped: pc.dim('-') } as const;
const REDRAW_MS = 100;

/** One line per case as it ends, failures under it, a summary; a live progress line on a TTY. */
export function terminalReporter(opts: TerminalOptions): Reporter {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  let trialsTotal = 0;
  let trialsDone = 0;
  let failing = 0;
  let lastDraw = 0;
  let progressShown = false;
  let strict = false;
  const flaky: string[] = [];
  // `--replay-tools`: calls answered from the tape, and trials that left it.
  const tape = { replayed: 0, trials: 0, diverged: 0 };
  // Printed once, after the case lines: a warning between them breaks the list a reader scans.
  const warnings = new WarningList();
  let ended = false;
  const coalesced = opts.coalesce && !opts.live ? coalescedOutput(opts.out) : undefined;
  const write = coalesced ? coalesced.write : (text: string) => void opts.out.write(text);

  const clearProgress = () => {
    if (progressShown) write('\r\x1b[2K');
    progressShown = false;
  };
  const drawProgress = (force = false) => {
    if (!opts.live) return;
    const t = now();
    // Redraw at most ~10 times a second: drawing must never become the run's bottleneck.
    if (!force && t - lastDraw < REDRAW_MS) return;
    lastDraw = t;
    const elapsed = t - started;
    const eta = trialsDone > 0 ? (elapsed / trialsDone) * (trialsTotal - trialsDone) : 0;
    const parts = [`${trialsDone}/${trialsTotal} trials`, failing ? pc.red(`${failing} failing`) : '0 failing', formatDuration(elapsed)];
    if (trialsDone > 0 && trialsDone < trialsTotal) parts.push(`ETA ${formatDuration(eta)}`);
    if (warnings.size) parts.push(pc.yellow(warnings.countText()));
    write(`\r\x1b[2K${pc.dim('…')} ${parts.join(pc.dim(' · '))}`);
    progressShown = true;
  };

  return {
    onBegin(info) {
      trialsTotal = info.trials;
      strict = info.strict;
      const from = provenanceNote(info.provenance);
      const shard = info.shard ? `shard ${info.shard.index}/${info.shard.total} · ` : '';
      write(
        pc.dim(
          `agent-evals · ${shard}${info.cases} case${info.cases === 1 ? '' : 's'}, ${info.trials} trial${info.trials === 1 ? '' : 's'} · concurrency ${info.concurrency}${info.config ? ` · ${terminalSafe(info.config)}` : ''}${from ? ` · ${terminalSafe(from)}` : ''}\n`,
        ),
      );
      drawProgress(true);
    },
    // Trials are counted for the live progress line only: off a TTY no trial's end is asked for.
    ...(opts.live
      ? {
          onTrialEnd() {
            trialsDone += 1;
            drawProgress();
          },
        }
      : {}),
    onCaseEnd(result) {
      // Trials not run count as done for the progress line.
      trialsDone += result.notRun;
      if (result.verdict === 'failed' || (strict && result.verdict === 'scored')) failing += 1;
      if (result.flaky) flaky.push(terminalSafe(caseKey(result)));
      for (const t of result.trials) {
        if (!t.toolTape) continue;
        tape.trials += 1;
        tape.replayed += t.toolTape.replayed;
        if (t.toolTape.diverged) tape.diverged += 1;
      }
      clearProgress();
      write(caseLines(result, opts.verbose).join('\n') + '\n');
      drawProgress();
    },
    onWarning(message) {
      // One that comes after the summary (a step of the run's end) has no list left to join.
      if (ended) {
        write(`${pc.yellow('warning')} ${terminalSafe(message)}\n`);
        return;
      }
      warnings.add(message);
      // Counted on the progress line at its next redraw; none is drawn before the header.
      if (progressShown) drawProgress();
    },
    onEnd({ summary, run, comparison, redteam }) {
      ended = true;
      clearProgress();
      const c = summary.cases;
      const caseParts = [
        c.passed && pc.green(`${c.passed} passed`),
        c.failed && pc.red(`${c.failed} failed`),
        c.scored && pc.yellow(`${c.scored} scored`),
        c.skipped && pc.dim(`${c.skipped} skipped`),
      ].filter(Boolean);
      const t = summary.trials;
      const u = summary.usage;
      const lines = [
        '',
        `${pc.bold('Cases')}     ${caseParts.join(', ') || '0'} ${pc.dim(`(${c.total})`)}`,
        // A trial Ctrl-C cut off started but has no verdict: said, as the pass rate leaves it out.
        `${pc.bold('Trials')}    ${t.run}/${t.planned} run, ${t.passed} passed${t.interrupted ? pc.yellow(`, ${t.interrupted} interrupted`) : ''}${t.notRun ? pc.dim(`, ${t.notRun} not run`) : ''}`,
        ...(summary.passRate ? [`${pc.bold('Pass rate')} ${formatPassRate(summary.passRate)}`] : []),
        `${pc.bold('Score')}     ${summary.score.mean.toFixed(2)} ±${summary.score.stddev.toFixed(2)}`,
        `${pc.bold('Duration')}  ${formatDuration(run.durationMs)}`,
        `${pc.bold('Usage')}     target ${formatUsage(u.target)} · judge ${formatUsage(u.judge)}${u.user ? ` · simulated user ${formatUsage(u.user)}` : ''} · total ${formatTokens(u.total.inputTokens + u.total.outputTokens)} tok ${formatCost(u.total.costUsd)}`,
      ];
      const k = summary.counters;
      if (k.judgeCallsSkippedByGates || k.judgeCallsFromCache || k.trialsNotRunEarlyStop) {
        lines.push(
          `${pc.bold('Saved')}     ${k.judgeCallsSkippedByGates} judge calls skipped by gates · ${k.judgeCallsFromCache} from cache (${formatTokens(k.judgeTokensSavedByCache)} tok) · ${k.trialsNotRunEarlyStop} trials early-stopped`,
        );
      }
      if (flaky.length) lines.push(pc.yellow(`${pc.bold('Flaky')}     ${flakyNote(flaky)}`));
      // Not a case of the run, so not in its counts: said apart, with how to go on.
      if (summary.draftsSkipped)
        lines.push(
          `${pc.bold('Drafts')}    ${pc.dim(`${summary.draftsSkipped} draft case${summary.draftsSkipped === 1 ? '' : 's'} skipped (review them with \`agent-evals review <file>\`, or --include-drafts)`)}`,
        );
      if (tape.trials) lines.push(`${pc.bold('Tool tape')} ${toolTapeNote(tape)}`);
      // Its own line and colour: an outage of the judge must not read as the agent failing.
      if (t.judgeErrors) lines.push(pc.magenta(`${pc.bold('Judge errors')} ${judgeErrorsNote(t.judgeErrors)}`));
      for (const line of panelAgreementLines(summary.panels ?? [])) lines.push(`${pc.bold('Panel')}     ${terminalSafe(line)}`);
      // The run's warnings, each once, here rather than between the case lines.
      if (warnings.size) pushAll(lines, [`${pc.bold(pc.yellow('Warnings'))}  ${warnings.size}`, ...warnings.lines().map((l) => `  ${pc.yellow('!')} ${terminalSafe(l).replace(/\n/g, '\n    ')}`)]);
      for (const f of summary.failures) lines.push(pc.red(`✗ ${terminalSafe(f)}`));
      for (const line of allowlistLines(summary)) lines.push(pc.red(terminalSafe(line)));
      if (run.interrupted) lines.push(pc.yellow('Interrupted: results hold the trials that finished.'));
      if (c.scored) lines.push((strict ? pc.red : pc.yellow)(scoredNote(c.scored, strict)));
      for (const table of summary.matrix ?? []) pushAll(lines, ['', ...matrixTableLines(table).map((l, i) => (i === 0 ? pc.bold(l) : l))]);
      if (comparison) pushAll(lines, comparisonTerminalLines(comparison));
      if (redteam) pushAll(lines, ['', ...redteamLines(redteam).map((l, i) => (i === 0 ? pc.bold(l) : l.startsWith('  ✗') ? pc.red(l) : l))]);
      write(lines.join('\n') + '\n');
      coalesced?.flush();
    },
  };
}

/** `trace t2 (2026-12-01T10:00:00Z, traces/prod.jsonl:2)`: a scored case's recorded run. */
export function scoredTraceText(t: NonNullable<CaseResult['scoredTrace']>): string {
  return `trace ${t.id} (${t.startedAt !== undefined ? `${t.startedAt}, ` : ''}${t.source})`;
}

function caseLines(r: CaseResult, verbose: boolean): string[] {
  // Ids come from eval files: they are shown as safely as any agent text.
  const key = terminalSafe(caseKey(r));
  const dur = r.trials.length ? r.trials.reduce((s, t) => s + t.durationMs, 0) / r.trials.length : 0;
  const judge = r.judgeScore ? `  judge ${r.judgeScore.mean.toFixed(2)} ±${r.judgeScore.stddev.toFixed(2)}` : '';
  const notRun = r.adaptive ? pc.dim(`  (${adaptiveNote(r.adaptive)})`) : r.notRun ? pc.dim(`  (${r.notRun} not run: ${terminalSafe(r.notRunReason ?? 'stopped')})`) : '';
  const rate = (r.passRate ? `  pass ${formatPassRate(r.passRate)}` : '') + (r.reducer ? `  ${reducerNote(r.reducer)}` : '');
  const tags = `${r.flaky ? pc.yellow('  flaky') : ''}${r.judgeNoise?.withinNoise ? pc.yellow(`  ${WITHIN_JUDGE_NOISE}`) : ''}${r.judgeErrors ? pc.magenta(`  ${r.judgeErrors} judge error${r.judgeErrors === 1 ? '' : 's'}`) : ''}`;
  const head = `${MARK[r.verdict]} ${r.passed}/${trialsOutOf(r)} (needed ${r.required})  ${r.verdict === 'passed' ? key : pc.bold(key)}  score ${r.score.mean.toFixed(2)} ±${r.score.stddev.toFixed(2)}${judge}  ${pc.dim(formatDuration(dur))}${rate}${tags}${notRun}`;
  const lines = [head];
  // Shown for a passing case too: what ran live instead of from the tape is worth knowing.
  for (const line of toolTapeLines(r)) lines.push(`    ${pc.yellow(terminalSafe(line))}`);
  // An entry no call reached tested nothing: worth knowing whatever the verdict.
  for (const line of toolResultsLines(r)) lines.push(`    ${pc.yellow(terminalSafe(line))}`);
  // Asked for with --judge-noise: its flip rates are the point, shown whether or not the case missed.
  if (r.judgeNoise) for (const line of judgeNoiseLines(r.judgeNoise)) lines.push(`    ${pc.dim(terminalSafe(line))}`);
  if (r.verdict === 'passed' && !verbose) return lines;
  // A scored trace (`agent-evals score`): which recorded run failed, when and where it was read.
  if (r.scoredTrace) lines.push(`    ${pc.dim(terminalSafe(scoredTraceText(r.scoredTrace)))}`);
  for (const detail of failureDetails(r, verbose)) lines.push(`    ${detail}`);
  if (verbose) for (const line of missedTrialLines(r)) lines.push(`    ${pc.dim(line)}`);
  return lines;
}

/** Failing assertions and trial errors, each once with the trials it happened in. */
function failureDetails(r: CaseResult, verbose: boolean): string[] {
  const seen = new Map<string, number[]>();
  const note = (text: string, trial: number) => {
    const list = seen.get(text) ?? [];
    list.push(trial + 1);
    seen.set(text, list);
  };
  for (const t of r.trials) {
    if (t.error) note(pc.red(`error: ${terminalSafe(oneLine(t.error, 400))}`), t.index);
    for (const a of t.assertions) {
      if (a.status === 'passed' && !verbose) continue;
      if (a.status === 'skipped' && !verbose) continue;
      note(assertionLine(a, verbose), t.index);
    }
  }
  return [...seen].map(([text, trials]) => (r.planned > 1 ? `${text} ${pc.dim(`(trial${trials.length > 1 ? 's' : ''} ${trials.join(', ')})`)}` : text));
}

function assertionLine(a: AssertionResult, verbose: boolean): string {
  const mark = a.status === 'passed' ? pc.green('✓') : a.status === 'skipped' ? pc.dim('-') : a.severity === 'gate' ? pc.red('✗') : pc.yellow('~');
  // On the author's scale (`7/10 (min 7/10)`); the 0..1 scale reads score/threshold.
  const shown = a.scale ? `${formatScore(a.score, a.scale)} (min ${formatScore(a.threshold, a.scale)})` : `${a.score.toFixed(2)}/${a.threshold.toFixed(2)}`;
  const score = a.judge || a.severity === 'soft' ? ` ${shown}` : '';
  const label = `${a.severity === 'soft' ? pc.dim('[soft] ') : ''}${a.status === 'error' ? pc.red('[error] ') : ''}`;
  const text = assertionText(a);
  const turn = a.turn !== undefined ? pc.dim(`turn ${a.turn} `) : '';
  let line = `${mark} ${turn}${label}${terminalSafe(oneLine(text, 300))}${score}`;
  if (a.reason && a.reason !== a.message) line += `\n      ${pc.dim(terminalSafe(oneLine(a.reason, 400)))}`;
  if (a.panel)
    line += panelMemberLines(a.panel)
      .map((l) => `\n      ${pc.dim(terminalSafe(oneLine(l, 200)))}`)
      .join('');
  if (verbose && a.evidence?.length) line += a.evidence.map((e) => `\n      ${pc.dim('• ' + terminalSafe(oneLine(e, 200)))}`).join('');
  if (verbose && a.judge) {
    const j = a.judge;
    line += `\n      ${pc.dim(`judge ${terminalSafe(`${j.provider}:${j.model}`)} · ${formatUsage(j.usage)}${j.cached ? ' · cached' : ''}${j.batch ? ' · batch' : ''}${j.steps !== undefined ? ` · ${j.steps} steps, ${j.toolCalls ?? 0} tool calls` : ''}`)}`;
  }
  return line;
}

/** The `terminal` reporter on stdout; a live progress line on a TTY outside CI. */
export function create(o: BuiltInReporterOptions): Reporter {
  const live = stdoutIsLive();
  return terminalReporter({ out: process.stdout, live, verbose: o.verbose, coalesce: !live });
}
