import type { CaseChange, CaseChangeKind, CaseVerdict, ComparedSide, Comparison } from '../core/results-schema.js';
import { CaseChangeKindSchema } from '../core/results-schema.js';
import type { ComparableCase } from './compared-case.js';
import { caseKey } from '../core/matrix.js';
import { fisherDropP, fisherRiseP } from './fisher.js';
import { rankSumHigherP, rankSumLowerP } from './rank-sum.js';
import { judgeChanges as describeJudgeChanges } from './judge-changes.js';
import { toolChanges as describeToolChanges } from './tool-changes.js';
import { estimateDrop } from './estimate-drop.js';
import { failedAssertions, failedAssertionsLine, failedAssertionsP } from './assertion-failures.js';
import { reducerName } from '../core/reducer-note.js';
import { beyondEpsilon } from './beyond-epsilon.js';

export interface CompareOptions {
  /** The baseline, as the user named it (shown in the table). */
  baseline: string;
  baseRun?: Comparison['baseRun'];
  /** A mean-score drop larger than this is a regression (default 0.05). */
  epsilon: number;
  /** More counted regressions than this fail the comparison (default 0). */
  maxRegressions: number;
  /** Count only regressions whose p-value is below this. */
  alpha?: number;
  /** Said under the comparison beside its own warnings (a side that was interrupted). */
  warnings?: string[];
}

/** Below this many trials on a side, no pass-rate drop reaches p < 0.05 (3/3 → 0/3 is p = 0.05). */
export const MIN_SIGNIFICANT_TRIALS = 3;

// A skipped side is `not-run` before any movement is asked of it.
const RANK: Record<CaseVerdict, number> = { passed: 3, scored: 2, failed: 1, skipped: 0 };
const ORDER: CaseChangeKind[] = ['regressed', 'judge-errors', 'not-run', 'cannot-rejudge', 'changed', 'judge-changed', 'tools-changed', 'improved', 'new', 'removed', 'unchanged'];

/**
 * Compares a run's cases with a baseline's, matched by `suite/id`, each by `classifyChange`. Pure: the
 * files are read and the run is executed elsewhere.
 */
export function compareRuns(base: readonly ComparableCase[], head: readonly ComparableCase[], opts: CompareOptions): Comparison {
  return summariseChanges(caseChanges(base, head, opts), opts);
}

/** Every case of either side, unchanged ones too: what it did from the baseline to the run. */
export function caseChanges(base: readonly ComparableCase[], head: readonly ComparableCase[], opts: CompareOptions): CaseChange[] {
  const baseByKey = new Map(base.map((c) => [keyOf(c), c]));
  const headKeys = new Set(head.map(keyOf));
  const changes: CaseChange[] = [];
  for (const h of head) {
    const b = baseByKey.get(keyOf(h));
    changes.push(b ? classifyChange(b, h, opts) : { key: keyOf(h), kind: 'new', head: side(h) });
  }
  for (const b of base) if (!headKeys.has(keyOf(b))) changes.push({ key: keyOf(b), kind: 'removed', base: side(b) });
  return changes;
}

/** The comparison of the cases' changes: counts, what counts against `maxRegressions`, the moved cases in order. */
export function summariseChanges(changes: readonly CaseChange[], opts: CompareOptions, extra: Pick<Comparison, 'rejudge'> & { warnings?: string[] } = {}): Comparison {
  const counts = Object.fromEntries(CaseChangeKindSchema.options.map((k) => [k, 0])) as Record<CaseChangeKind, number>;
  for (const c of changes) counts[c.kind] += 1;
  const counted = changes.filter((c) => c.counted).length;
  // A case set apart (edited, judged otherwise, not run on a side) was not compared: its trials warn of nothing.
  const apart: CaseChangeKind[] = ['changed', 'judge-changed', 'not-run'];
  const compared = changes.filter((c) => c.base && c.head && !apart.includes(c.kind));
  const few = compared.filter((c) => Math.min(c.base!.run, c.head!.run) < MIN_SIGNIFICANT_TRIALS).length;
  const warnings: string[] = [];
  if (few > 0) {
    warnings.push(
      `${few} compared case${few === 1 ? ' has' : 's have'} fewer than ${MIN_SIGNIFICANT_TRIALS} trials on a side: no pass-rate drop there can be significant (run more trials with --repeat)`,
    );
  }
  const touched = counts['judge-changed'];
  if (touched > 0) warnings.push(extra.rejudge ? rejudgedJudgeChangeLine(touched) : judgeChangeLine(touched));
  const tooled = toolsChangedLine(changes);
  if (tooled) warnings.push(tooled);
  // A case the agent left as it was is still worth a line when the judge moved it.
  const listed = (c: CaseChange) => c.kind !== 'unchanged' || (c.judgeEffect !== undefined && c.judgeEffect.direction !== 'none');
  return {
    baseline: opts.baseline,
    ...(opts.baseRun ? { baseRun: opts.baseRun } : {}),
    epsilon: opts.epsilon,
    maxRegressions: opts.maxRegressions,
    ...(opts.alpha !== undefined ? { alpha: opts.alpha } : {}),
    counts,
    counted,
    failed: counted > opts.maxRegressions,
    cases: changes.filter(listed).sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.key.localeCompare(b.key)),
    warnings: [...warnings, ...(opts.warnings ?? []), ...(extra.warnings ?? [])],
    ...(extra.rejudge ? { rejudge: extra.rejudge } : {}),
  };
}

/**
 * The rule of every comparison (`run --baseline`, `compare`, `--rejudge`), for one case on both sides.
 * A case's change is classified per assertion, so a judge change never hides a break:
 *
 * 1. An edited case (its fingerprint differs) is `changed`, not compared.
 * 2. An assertion that no judge graded (a deterministic one, gate or soft, or a judged one not asked
 *    because the reply was empty) and that fails in a larger share of head's trials than of the
 *    baseline's (on a passAt/passHat case: whose own estimate drops by more than epsilon) makes the
 *    case `regressed`, whatever happened to its judges (changed, erring) and however its trials were
 *    cut short. One that failed as often in the baseline is no regression of its own. Its p is the
 *    Fisher p of that assertion's pass-rate drop.
 * 3. When the judges differ (the case's judge fingerprints), the case is `judge-changed` only when
 *    its difference lies wholly in judged assertions whose judge changed: a judged assertion whose judge
 *    is the same on both sides and that fails more often makes it `regressed` too. So it does beside
 *    judge errors, over the trials its judge answered (a judge error is neither a pass nor a failure).
 * 4. Then as before: judge errors on a side, `judge-errors`; no trial or cut short, `not-run`; else the
 *    case's verdict and score move (`movement`): `regressed`, `improved` or `unchanged`; when they do
 *    not move down but rule 2 found a failing assertion, the case is `regressed` by it.
 * 5. The tools offered the model (the case's tools part) are the agent's own, like its prompt: a case
 *    whose tools changed is compared by rules 2-4 all the same, so one that got worse is `regressed`.
 *    Only where it would be `unchanged` is it `tools-changed` (never counted); every kind of such a
 *    case names the tools that changed (`toolChanges`).
 *
 * A regression is `counted` unless `alpha` is set and its p is not below it. Pure.
 */
export function classifyChange(b: ComparableCase, h: ComparableCase, opts: CompareOptions): CaseChange {
  const base = side(b);
  const head = side(h);
  // A side without a tools part (a target that reports none, or a baseline from before them) compares as it stands.
  const toolChanges =
    b.toolsFingerprint !== undefined && h.toolsFingerprint !== undefined && b.toolsFingerprint.hash !== h.toolsFingerprint.hash
      ? describeToolChanges(b.toolsFingerprint, h.toolsFingerprint)
      : undefined;
  const change = { key: keyOf(h), base, head, ...(toolChanges ? { toolChanges } : {}) };
  const toolsAlso = toolChanges ? `; the tools also changed (${toolChanges.join('; ')})` : '';
  // On a regression the words say the tools are no excuse.
  const notExcused = toolsAlso && `${toolsAlso}, which does not excuse it`;
  // A case without a fingerprint (a baseline from before they existed) is compared as it stands.
  if (b.fingerprint !== undefined && h.fingerprint !== undefined && b.fingerprint !== h.fingerprint) return { ...change, kind: 'changed', reason: 'input, reference, assertions or check edited' };
  // A side without judge fingerprints (a baseline from before them) is compared as it stands.
  const judgeMoved = b.judgeFingerprint !== undefined && h.judgeFingerprint !== undefined && b.judgeFingerprint.hash !== h.judgeFingerprint.hash;
  // Beside a judge change or a judge's errors, a judged assertion graded by the same judge on both sides
  // still speaks for the agent over the trials its judge answered: one outage hides no failing rest.
  const judgeErred = (b.judgeErrors ?? 0) > 0 || (h.judgeErrors ?? 0) > 0;
  const failed = failedAssertions(b, h, judgeMoved || judgeErred, opts.epsilon);
  const byAssertions = (judgeChanges?: string[]): CaseChange => {
    const pValue = failedAssertionsP(failed);
    const judgeAlso = judgeChanges ? `; the judge also changed (${judgeChanges.join('; ')}), which does not excuse it` : '';
    const also = judgeAlso + notExcused;
    return {
      ...change,
      kind: 'regressed',
      pValue,
      counted: opts.alpha === undefined || pValue < opts.alpha,
      reason: failedAssertionsLine(failed) + also,
      failedAssertions: failed,
      ...(judgeChanges ? { judgeChanges } : {}),
    };
  };
  // The same case judged by another judge or criterion: what moved with the judge says nothing about
  // the agent, so it is listed with what changed, never counted; an assertion no judge graded, or one
  // whose judge stayed, still speaks for the agent.
  if (judgeMoved) {
    const judgeChanges = describeJudgeChanges(b.judgeFingerprint!, h.judgeFingerprint!);
    if (failed.length > 0) return byAssertions(judgeChanges);
    return { ...change, kind: 'judge-changed', reason: judgeChanges.join('; ') + toolsAlso, judgeChanges };
  }
  // A judge outage says nothing about the agent: such a case is listed, never counted.
  const uncompared: CaseChange | undefined = judgeErred
    ? { ...change, kind: 'judge-errors', reason: 'could not compare: judge errors' + toolsAlso }
    : // A case cut short (bail, budget, interrupt) before its trials decided it says nothing either way.
      base.run === 0 || head.run === 0 || base.verdict === 'skipped' || head.verdict === 'skipped'
      ? { ...change, kind: 'not-run', reason: 'could not compare: not run or cut short' + toolsAlso }
      : undefined;
  if (uncompared) return failed.length > 0 ? byAssertions() : uncompared;

  const m = movement(base, head, opts.epsilon, { base: trialScores(b), head: trialScores(h) });
  if (m.direction === 'down') return { ...change, kind: 'regressed', pValue: m.pValue, counted: opts.alpha === undefined || m.pValue < opts.alpha, reason: m.reason + notExcused };
  if (failed.length > 0) return byAssertions();
  if (m.direction === 'up') return { ...change, kind: 'improved', pValue: m.pValue, reason: m.reason + toolsAlso };
  // The agent did as well as before with other tool definitions: listed with them, never counted.
  if (toolChanges) return { ...change, kind: 'tools-changed', reason: toolChanges.join('; ') };
  return { ...change, kind: 'unchanged' };
}

export type Movement = { direction: 'down' | 'up'; pValue: number; reason: string } | { direction: 'none' };

/**
 * How one side moved to the other: down when the verdict got worse or the measure dropped by more
 * than epsilon, up the other way, each with a one-sided p-value of the move. The p tests what moved:
 * the pass rate (Fisher), or, when the pass rate held while the mean score moved and both sides' trial
 * scores are known (`scores`), the scores (rank-sum): a judge's 1.00 → 0.75 on every trial, all above
 * its threshold, is no chance drop though 5/5 stays 5/5. The measure is the mean score, or a
 * passAt/passHat case's estimate when both sides have the same one: that case is judged on "at least
 * one of k" (or "all k"), so a raw pass rate that falls while the estimate holds (10/10 → 8/10 is
 * pass@3 1 → 1) is no regression.
 */
export function movement(base: ComparedSide, head: ComparedSide, epsilon: number, scores?: { base: number[]; head: number[] }): Movement {
  const worseVerdict = RANK[head.verdict] < RANK[base.verdict];
  const betterVerdict = RANK[head.verdict] > RANK[base.verdict];
  const est = estimateDrop(base, head);
  const drop = est ? est.drop : base.score - head.score;
  const line = est ? est.line : `score ${base.score.toFixed(2)} → ${head.score.toFixed(2)}`;
  const reason = (verdictMoved: boolean) => [verdictMoved ? `verdict ${base.verdict} → ${head.verdict}` : '', beyondEpsilon(Math.abs(drop), epsilon) ? line : ''].filter(Boolean).join(', ');
  // The scores speak when the pass rate did not move the same way (and no estimate stands for them).
  const byScores = !est && scores && scores.base.length > 0 && scores.head.length > 0 ? scores : undefined;
  const rate = (s: ComparedSide) => (s.run === 0 ? 0 : s.passed / s.run);
  if (worseVerdict || beyondEpsilon(drop, epsilon)) {
    const pValue = byScores && rate(head) >= rate(base) ? rankSumLowerP(byScores.base, byScores.head) : fisherDropP(base.passed, base.run, head.passed, head.run);
    return { direction: 'down', pValue, reason: reason(worseVerdict) };
  }
  if (betterVerdict || beyondEpsilon(-drop, epsilon)) {
    const pValue = byScores && rate(head) <= rate(base) ? rankSumHigherP(byScores.base, byScores.head) : fisherRiseP(base.passed, base.run, head.passed, head.run);
    return { direction: 'up', pValue, reason: reason(betterVerdict) };
  }
  return { direction: 'none' };
}

/** The scores of a case's trials that ran to a verdict (interrupted ones are out, as in `side`); none from a file that lacks them. */
function trialScores(c: ComparableCase): number[] {
  const decided = c.trials.filter((t) => t.verdict !== 'interrupted');
  return decided.every((t) => t.score !== undefined) ? decided.map((t) => t.score!) : [];
}

const keyOf = (c: ComparableCase) => caseKey(c);

/** The summary line of the cases a judge change kept out of the comparison. */
export function judgeChangeLine(n: number): string {
  return `${n} case${n === 1 ? '' : 's'} touched by a judge change: not compared (the judge, its criterion or our judge prompt differ from the baseline's; re-judge the baseline with --rejudge to measure the agent apart from the judge)`;
}

/**
 * `2 cases were offered other tool definitions than in the baseline (tool orders_lookup changed): …`:
 * the run's tool changes once, over the compared cases (a case that got worse with them is still regressed).
 */
function toolsChangedLine(changes: readonly CaseChange[]): string | undefined {
  const touched = changes.filter((c) => c.toolChanges && c.kind !== 'changed');
  if (touched.length === 0) return undefined;
  const what = [...new Set(touched.flatMap((c) => c.toolChanges!))].sort();
  const n = touched.length;
  return `${n} case${n === 1 ? ' was' : 's were'} offered other tool definitions than in the baseline (${what.join('; ')}): compared as usual, so a case that got worse is still regressed; one that did not reads "tools changed", never counted`;
}

/** Under `--rejudge`: the cases whose head was judged otherwise than the re-judged baseline. */
function rejudgedJudgeChangeLine(n: number): string {
  return `${n} case${n === 1 ? ' was' : 's were'} judged in head by another judge or criterion than the one that re-judged the baseline: not compared (re-judge with head's judges: \`--judge\`, or the config head ran with)`;
}

/** Interrupted trials say nothing about the target: they are left out of `run`. */
export function side(c: ComparableCase): ComparedSide {
  return {
    verdict: c.verdict,
    passed: c.passed,
    run: c.trials.filter((t) => t.verdict !== 'interrupted').length,
    score: c.score.mean,
    ...(c.judgeErrors ? { judgeErrors: c.judgeErrors } : {}),
    ...(c.reducer?.estimate !== undefined ? { estimate: { name: reducerName(c.reducer.kind, c.reducer.k), value: c.reducer.estimate } } : {}),
  };
}
