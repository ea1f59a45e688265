import { scaleOf, type Calibration, type CalibratedRow } from '../judges/calibration-schema.js';
import { oneLine, terminalSafe } from '../report/sanitize.js';

const num = (x: number | null, digits = 3): string => (x === null ? 'undefined' : String(Number(x.toFixed(digits))));
const rowsOf = (n: number): string => `${n} row${n === 1 ? '' : 's'}`;
const pct = (x: number | null): string => (x === null ? 'undefined' : `${(x * 100).toFixed(1)}%`);

/** The terminal summary of a calibration (reasons and ids are untrusted: shown, never obeyed). */
export function calibrationText(c: Calibration, writtenTo: string): string {
  const scale = scaleOf(c.criterion);
  const onScale = (t: number) => (scale === 10 ? ` (${num(t * 10)} on the 10-point scale)` : '');
  const lines: string[] = [];
  lines.push(`Calibration of ${c.judge} on ${rowsOf(c.rows)} of ${c.file}`);
  lines.push(`  ${c.criterion.type}${c.criterion.criteria ? ` "${oneLine(c.criterion.criteria, 100)}"` : ''}${scale === 10 ? ', scale 10' : ''}, threshold ${num(c.threshold)}`);
  if (c.scores) {
    const s = c.scores;
    lines.push(`Scores (${rowsOf(s.rows)}): exact ${pct(s.exactAgreement)}, within ±${num(s.tolerance)} ${pct(s.withinTolerance)}, MAE ${num(s.meanAbsoluteError)}, Spearman ${num(s.spearman)}`);
  }
  if (c.verdicts) {
    const v = c.verdicts;
    const m = v.confusionMatrix;
    lines.push(`Verdicts (${rowsOf(v.rows)}): accuracy ${pct(v.accuracy)}, κ ${num(v.kappa)}, TPR ${pct(v.truePositiveRate)}, TNR ${pct(v.trueNegativeRate)}`);
    lines.push(`               human pass  human fail`);
    lines.push(`  judge pass   ${String(m.truePositive).padStart(10)}  ${String(m.falsePositive).padStart(10)}`);
    lines.push(`  judge fail   ${String(m.falseNegative).padStart(10)}  ${String(m.trueNegative).padStart(10)}`);
  }
  if (c.thresholdAdvice) {
    const a = c.thresholdAdvice;
    lines.push(`Threshold advice: ${num(a.threshold)}${onScale(a.threshold)} gives κ ${num(a.kappa)} (κ at ${num(c.threshold)}: ${num(c.verdicts?.kappa ?? null)})`);
  } else if (c.verdicts) lines.push('Threshold advice: none (κ is undefined at every threshold: the humans gave one verdict only)');
  if (c.worstDisagreements.length) {
    lines.push(`Worst disagreements:`);
    for (const r of c.worstDisagreements) lines.push(`  ${terminalSafe(disagreementLine(r))}`);
  }
  if (c.judgeErrors) {
    const failed = c.results.filter((r) => r.error !== undefined);
    lines.push(`Judge errors: ${rowsOf(c.judgeErrors)} not counted (line ${failed[0]!.line}: ${terminalSafe(oneLine(failed[0]!.error!, 160))})`);
  }
  if (c.skippedLines.length) lines.push(`Skipped (no labels): line${c.skippedLines.length === 1 ? '' : 's'} ${c.skippedLines.join(', ')}`);
  const cost = c.usage.costUsd === null ? 'unknown cost' : `$${c.usage.costUsd.toFixed(4)}`;
  lines.push(
    `Judge usage: ${c.usage.calls} call${c.usage.calls === 1 ? '' : 's'}, ${c.usage.inputTokens + c.usage.outputTokens} tokens, ${cost}${c.cachedRows ? `; ${c.cachedRows} answered from the cache` : ''}`,
  );
  lines.push(`Written to ${writtenTo}`);
  return lines.join('\n') + '\n';
}

function disagreementLine(r: CalibratedRow): string {
  const human = [r.humanScore !== undefined ? num(r.humanScore) : undefined, r.humanVerdict].filter(Boolean).join(' ');
  return `line ${r.line} (${oneLine(r.id, 40)}): human ${human}, judge ${num(r.judgeScore)} ${r.judgeVerdict}: ${oneLine(r.reason, 160)}`;
}
