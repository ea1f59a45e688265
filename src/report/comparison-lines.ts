import pc from 'picocolors';
import type { CaseChange, CaseChangeKind, Comparison, ComparedSide, JudgeEffect } from '../core/results-schema.js';
import { terminalSafe } from './sanitize.js';
import { formatUsage } from './format.js';

/** `p = 0.083`; a very small value as `p < 0.001`. */
export function formatP(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

const rate = (s: ComparedSide) => `${s.passed}/${s.run}`;

/**
 * `5/5 → 2/5, p = 0.083 (verdict passed → failed)`: what one compared case did, in plain text. Under
 * `--rejudge` both effects: `agent effect: none (0/5 → 0/5); judge effect: 5/5 → 0/5, p = 0.004 (…)`.
 */
export function changeDetail(c: CaseChange): string {
  return c.judgeEffect ? `agent effect: ${agentEffectDetail(c)}; judge effect: ${judgeEffectDetail(c.judgeEffect)}` : agentEffectDetail(c);
}

/** The case's change from the (re-judged) baseline to head, without the judge effect. */
export function agentEffectDetail(c: CaseChange): string {
  const moved = c.base && c.head ? `${rate(c.base)} → ${rate(c.head)}` : c.base ? `was ${rate(c.base)}` : c.head ? `now ${rate(c.head)}` : '';
  if (c.kind === 'unchanged') return `none (${moved})`;
  const p = c.pValue !== undefined && (c.kind === 'regressed' || c.kind === 'improved') ? `, ${formatP(c.pValue)}` : '';
  const errors = c.kind === 'judge-errors' ? ` (judge errors: base ${c.base?.judgeErrors ?? 0}, head ${c.head?.judgeErrors ?? 0})` : '';
  const notCounted = c.kind === 'regressed' && c.counted === false ? ' — not counted: p ≥ alpha' : '';
  return `${moved}${p}${c.reason && c.kind !== 'judge-errors' ? ` (${c.reason})` : ''}${errors}${notCounted}`;
}

/** `5/5 → 0/5 re-judged, p = 0.004 (head's judge stricter: verdict passed → failed)`: the judge effect, never counted. */
export function judgeEffectDetail(e: JudgeEffect): string {
  const moved = `${rate(e.recorded)} → ${rate(e.rejudged)} re-judged`;
  const changes = e.judgeChanges?.length ? `; ${e.judgeChanges.join('; ')}` : '';
  if (e.direction === 'none') return `none (${moved}${changes})`;
  const way = e.direction === 'lower' ? "head's judge stricter" : "head's judge more lenient";
  return `${moved}${e.pValue !== undefined ? `, ${formatP(e.pValue)}` : ''} (${way}${e.reason ? `: ${e.reason}` : ''}${changes})`;
}

export const KIND_LABEL: Record<CaseChangeKind, string> = {
  regressed: 'regressed',
  improved: 'improved',
  unchanged: 'unchanged',
  changed: 'changed',
  'judge-changed': 'judge changed',
  'tools-changed': 'tools changed',
  new: 'new',
  removed: 'removed',
  'judge-errors': 'could not compare: judge errors',
  'not-run': 'could not compare: not run',
  'cannot-rejudge': 'could not compare: cannot re-judge',
};

/**
 * `1 regressed (1 counted, max 0), 0 improved, …`: the comparison in one line. Under `--rejudge`:
 * `agent effect: 1 regressed …; judge effect (re-judged by openai:b): 1 lower, 0 higher`.
 */
export function comparisonHeadline(c: Comparison): string {
  const agent = agentHeadline(c);
  if (!c.rejudge) return agent;
  const by = c.rejudge.judges.length ? ` (baseline re-judged by ${c.rejudge.judges.join(', ')})` : '';
  return `agent effect: ${agent}; judge effect${by}: ${c.rejudge.lower} lower, ${c.rejudge.higher} higher`;
}

function agentHeadline(c: Comparison): string {
  // A file written before a kind existed has no count for it.
  const n = (k: keyof Comparison['counts']) => c.counts[k] ?? 0;
  const uncompared = n('judge-errors') + n('not-run') + n('cannot-rejudge');
  const parts = [
    `${n('regressed')} regressed (${c.counted} counted${c.alpha !== undefined ? ` at p < ${c.alpha}` : ''}, max ${c.maxRegressions})`,
    `${n('improved')} improved`,
    `${n('unchanged')} unchanged`,
    ...(n('changed') ? [`${n('changed')} changed`] : []),
    ...(n('judge-changed') ? [`${n('judge-changed')} judge changed`] : []),
    ...(n('tools-changed') ? [`${n('tools-changed')} tools changed`] : []),
    ...(n('new') ? [`${n('new')} new`] : []),
    ...(n('removed') ? [`${n('removed')} removed`] : []),
    ...(uncompared ? [`${uncompared} could not compare`] : []),
  ];
  return parts.join(', ');
}

/**
 * The legend of a comparison's kinds, as every reporter shows it (the rule itself is `classifyChange`
 * in stats/compare-runs.ts; the HTML page says the same in its own words, as it imports no value).
 */
export const CHANGE_LEGEND =
  'an assertion no judge graded (a deterministic check, gate or soft) that fails more often than in the baseline makes its case regressed, whatever happened to its judges; "judge changed" (never counted) is only a case whose differences all lie in judged assertions whose judge or criterion changed; "tools changed" (never counted) is a case whose model was offered other tool definitions (names, descriptions, schemas) and that did not get worse: one that got worse with them is regressed';

/** Whether a comparison has a case the legend explains: one regressed, judge changed or tools changed. */
export function needsLegend(c: Comparison): boolean {
  return c.cases.some((x) => x.kind === 'regressed' || x.kind === 'judge-changed' || x.kind === 'tools-changed');
}

/** `judge 4 calls 1.2k tok $0.0031`: what `--rejudge` spent re-judging the baseline, which the run's usage does not hold. */
export function rejudgeSpend(c: Comparison): string | undefined {
  const u = c.rejudge?.usage;
  return u ? `judge ${u.calls} call${u.calls === 1 ? '' : 's'} ${formatUsage(u)} (re-judging the baseline; not in the run's usage)` : undefined;
}

/** The verdict of a comparison, as a sentence for the run's failures. */
export function comparisonFailure(c: Comparison): string {
  return `${c.counted} regression${c.counted === 1 ? '' : 's'} against baseline ${c.baseline} (more than --max-regressions ${c.maxRegressions})`;
}

/** The comparison table for a terminal: a headline, one line per case that moved, warnings. */
export function comparisonTerminalLines(c: Comparison): string[] {
  const colour = (kind: CaseChangeKind, counted: boolean | undefined) =>
    kind === 'regressed' ? (counted ? pc.red : pc.yellow) : kind === 'improved' ? pc.green : kind === 'judge-errors' || kind === 'not-run' || kind === 'cannot-rejudge' ? pc.magenta : pc.dim;
  const lines = [
    '',
    `${pc.bold('Baseline')}  ${terminalSafe(c.baseline)}${c.baseRun ? pc.dim(` (run ${terminalSafe(c.baseRun.id)}${c.baseRun.gitSha ? ` @ ${terminalSafe(c.baseRun.gitSha.slice(0, 7))}` : ''})`) : ''}`,
  ];
  lines.push(`${pc.bold('Compared')}  ${comparisonHeadline(c)}`);
  const spend = rejudgeSpend(c);
  if (spend) lines.push(`${pc.bold('Re-judge')}  ${spend}`);
  for (const change of c.cases) {
    const paint = colour(change.kind, change.counted);
    lines.push(`  ${paint(KIND_LABEL[change.kind].padEnd(10))} ${terminalSafe(change.key)}  ${terminalSafe(changeDetail(change))}`);
  }
  if (needsLegend(c)) lines.push(pc.dim(`  How a case is classified: ${CHANGE_LEGEND}.`));
  for (const w of c.warnings) lines.push(`${pc.yellow('warning')} ${terminalSafe(w)}`);
  return lines;
}
