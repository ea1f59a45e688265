import type { CaseChange, CaseResult, Comparison, JudgeEffect } from '../core/results-schema.js';
import type { ComparableCase } from './compared-case.js';
import { caseKey } from '../core/matrix.js';
import { caseChanges, movement, side, summariseChanges, type CompareOptions } from './compare-runs.js';

/** A baseline re-judged by head's judge (`--rejudge`): its cases as recorded and as re-judged. */
export interface RejudgedBaseline {
  /** The baseline's cases as recorded. */
  recorded: readonly ComparableCase[];
  /** The same cases, the same trials, re-graded by head's judge; a recorded case absent here could not be re-judged. */
  rejudged: readonly ComparableCase[];
  /** Why a case could not be re-judged, by `suite/id` key (`trace: safe` without the run folder's raw trials, …). */
  cannot: ReadonlyMap<string, string>;
  /** Head's judges, in words (`openai:gpt-4.1-nano`). */
  judges: readonly string[];
  /** The judges that re-judged each case (`caseJudges`), by key: head's should be the same. */
  judgesByCase?: ReadonlyMap<string, readonly string[]>;
  /** What the caller found about the re-judge (head's judge fingerprints not those the re-judge used, …). */
  warnings?: readonly string[];
}

/**
 * The two effects of a `--rejudge` comparison, per case: the judge effect (the baseline as recorded vs
 * re-judged: the same trials, only the judge differs) and the agent effect (the re-judged baseline vs
 * head: the same judge, only the agent's trials differ). Only the agent effect counts against
 * `maxRegressions`; a case that could not be re-judged is listed (`cannot-rejudge`), never counted. Pure.
 */
export function compareEffects(
  baseline: RejudgedBaseline,
  head: readonly ComparableCase[],
  opts: CompareOptions,
  /** The judges that graded head's cases (`caseJudges`) and what to call head: a case they differ on is warned about. */
  headJudges?: { name: string; byCase: ReadonlyMap<string, readonly string[]> },
): Comparison {
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
    rejudge: { judges: [...baseline.judges], lower: effects.filter((d) => d === 'lower').length, higher: effects.filter((d) => d === 'higher').length },
    warnings: [...(baseline.warnings ?? []), ...mismatch(baseline, headJudges)],
  });
}

function mismatch(baseline: RejudgedBaseline, head: { name: string; byCase: ReadonlyMap<string, readonly string[]> } | undefined): string[] {
  const warning = baseline.judgesByCase && head ? judgeMismatchWarning(baseline.judgesByCase, head.byCase, head.name) : undefined;
  return warning ? [warning] : [];
}

/** A compared case whose baseline could not be re-judged: its agent effect is unknown, so it is listed and never counted. */
function couldNotRejudge(change: CaseChange, why: string): CaseChange {
  // An edited, removed or new case was not going to be compared anyway: it keeps what it is.
  if (change.kind === 'changed' || change.kind === 'removed' || change.kind === 'new') return change;
  const { pValue: _p, counted: _c, ...rest } = change;
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
  const m = movement(recorded, rejudged, epsilon);
  if (m.direction === 'none') return { direction: 'none', recorded, rejudged };
  return { direction: m.direction === 'down' ? 'lower' : 'higher', recorded, rejudged, pValue: m.pValue, reason: m.reason };
}

/** The judges that graded a case's trials, as `provider:model` (with ` as <persona>` for a custom `system`), sorted. */
export function caseJudges(c: Pick<CaseResult, 'trials'>): string[] {
  const labels = new Set<string>();
  for (const t of c.trials) for (const a of t.assertions) if (a.judge) labels.add(`${a.judge.provider}:${a.judge.model}${a.judge.system !== undefined ? ` as "${a.judge.system.slice(0, 40)}"` : ''}`);
  return [...labels].sort();
}

/**
 * A `--rejudge` comparison holds only when head was judged by the judges that re-judged the baseline.
 * The cases where it was not, named, as one warning; undefined when every shared case matches.
 */
export function judgeMismatchWarning(rejudged: ReadonlyMap<string, readonly string[]>, head: ReadonlyMap<string, readonly string[]>, headName: string): string | undefined {
  const differ = [...rejudged].filter(([key, judges]) => head.has(key) && head.get(key)!.join(', ') !== judges.join(', '));
  if (differ.length === 0) return undefined;
  const shown = differ.slice(0, 3).map(([key, judges]) => `${key}: ${headName} ${head.get(key)!.join(', ') || 'no judge'}, re-judged by ${judges.join(', ') || 'no judge'}`);
  return (
    `${differ.length} case${differ.length === 1 ? ' was' : 's were'} judged in ${headName} by other judges than the baseline was re-judged with (${shown.join('; ')}${differ.length > 3 ? '; …' : ''}): ` +
    "their agent effect holds a judge change too; re-judge with head's judges (`--judge`, or the config head ran with)"
  );
}
