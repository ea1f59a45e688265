import type { CaseChange, Comparison, JudgeEffect } from '../core/results-schema.js';
import type { Usage } from '../core/usage.js';
import type { ComparableCase } from './compared-case.js';
import { caseKey } from '../core/matrix.js';
import { caseChanges, movement, side, summariseChanges, type CompareOptions } from './compare-runs.js';
import { judgeChanges } from './judge-changes.js';

/** A baseline re-judged by head's judge (`--rejudge`): its cases as recorded and as re-judged. */
export interface RejudgedBaseline {
  /** The baseline's cases as recorded. */
  recorded: readonly ComparableCase[];
  /** The same cases, the same trials, re-graded by head's judge; a recorded case absent here could not be re-judged. */
  rejudged: readonly ComparableCase[];
  /** Why a case could not be re-judged, by `suite/id` key (`trace: safe` without the run folder's raw trials, …). */
  cannot: ReadonlyMap<string, string>;
  /** What the re-judge spent on judges: kept in the comparison (`rejudge.usage`). */
  usage?: Usage;
}

/**
 * The two effects of a `--rejudge` comparison, per case: the judge effect (the baseline as recorded vs
 * re-judged: the same trials, only the judge differs) and the agent effect (the re-judged baseline vs
 * head: the same judge, only the agent's trials differ). Only the agent effect counts against
 * `maxRegressions`; a case that could not be re-judged is listed (`cannot-rejudge`), never counted (unless
 * an assertion no judge graded regressed it), and one whose head was judged otherwise than the re-judge
 * is classified by `classifyChange` like any other (`judge-changed` unless such an assertion regressed). Pure.
 */
export function compareEffects(baseline: RejudgedBaseline, head: readonly ComparableCase[], opts: CompareOptions): Comparison {
  const rejudged = new Map(baseline.rejudged.map((c) => [caseKey(c), c]));
  const recorded = new Map(baseline.recorded.map((c) => [caseKey(c), c]));
  // The agent effect compares head with the re-judged baseline; a case that has none keeps its recording, then is set apart below.
  const base = baseline.recorded.map((c) => rejudged.get(caseKey(c)) ?? c);
  const changes = caseChanges(base, head, opts).map((change): CaseChange => {
    const was = recorded.get(change.key);
    if (!was) return change;
    const again = rejudged.get(change.key);
    if (!again) return couldNotRejudge(change, baseline.cannot.get(change.key) ?? 'missing from the re-judged baseline');
    const effect = judgeEffect(was, again, opts.epsilon);
    return effect ? { ...change, judgeEffect: effect } : change;
  });
  const effects = changes.flatMap((c) => (c.judgeEffect ? [c.judgeEffect.direction] : []));
  return summariseChanges(changes, opts, {
    rejudge: {
      judges: judgesOf(baseline.rejudged),
      lower: effects.filter((d) => d === 'lower').length,
      higher: effects.filter((d) => d === 'higher').length,
      ...(baseline.usage ? { usage: baseline.usage } : {}),
    },
  });
}

/** A compared case whose baseline could not be re-judged: its agent effect is unknown, so it is listed and never counted. */
function couldNotRejudge(change: CaseChange, why: string): CaseChange {
  // An edited, removed or new case was not going to be compared anyway: it keeps what it is. A case
  // regressed by assertions no judge graded (or graded by the same judge) needs no re-judge to be one.
  if (change.kind === 'changed' || change.kind === 'removed' || change.kind === 'new' || change.failedAssertions) return change;
  const { pValue: _p, counted: _c, judgeChanges: _j, ...rest } = change;
  return { ...rest, kind: 'cannot-rejudge', reason: `cannot re-judge: ${why}` };
}

/**
 * The baseline's trials as recorded vs as re-judged. None when the re-judged side has judge errors or
 * no trial (the agent effect then says `judge-errors` or `not-run`): such a side measures no judge.
 */
export function judgeEffect(recordedCase: ComparableCase, rejudgedCase: ComparableCase, epsilon: number): JudgeEffect | undefined {
  const recorded = side(recordedCase);
  const rejudged = side(rejudgedCase);
  if ((rejudged.judgeErrors ?? 0) > 0 || recorded.run === 0 || rejudged.run === 0 || recorded.verdict === 'skipped' || rejudged.verdict === 'skipped') return undefined;
  const a = recordedCase.judgeFingerprint;
  const b = rejudgedCase.judgeFingerprint;
  const changed = a && b && a.hash !== b.hash ? { judgeChanges: judgeChanges(a, b) } : {};
  const m = movement(recorded, rejudged, epsilon);
  if (m.direction === 'none') return { direction: 'none', recorded, rejudged, ...changed };
  return { direction: m.direction === 'down' ? 'lower' : 'higher', recorded, rejudged, pValue: m.pValue, reason: m.reason, ...changed };
}

/** The judges that re-judged the baseline, as `provider:model`, from the judge fingerprints its cases recorded. */
function judgesOf(cases: readonly ComparableCase[]): string[] {
  const judges = cases.flatMap((c) => (c.judgeFingerprint?.assertions ?? []).map((a) => `${a.judge.provider}:${a.judge.model}`));
  return [...new Set(judges)].sort();
}
