import type { FailedAssertion } from '../core/results-schema.js';
import type { ComparableCase, ComparedAssertion } from './compared-case.js';
import { fisherDropP } from './fisher.js';
import { ESTIMATORS } from './pass-at-k.js';
import { smallest } from '../core/extremes.js';
import { beyondEpsilon } from './beyond-epsilon.js';

/** One assertion of a case over the trials that ran: how often it was decided, failed with no judge grading it, failed at all, and by which judges. */
interface Tally {
  name: string;
  kind: string;
  turn?: number;
  /** Trials that decided it (not skipped behind a failed gate, not left undecided by its judge's error). */
  run: number;
  /** Failures no judge graded: a deterministic assertion's, or a judged one's that was not asked (an empty reply). */
  unjudged: number;
  failed: number;
  /** The judge fingerprint hashes it was graded under. */
  judges: Set<string>;
}

/** What a comparison calls trials that ended in a target error or a check that threw. */
const TARGET_ERROR = 'target or check error';

/** An assertion's failure that no judge graded: a judge's own error (a judged assertion's `error`) is not one. */
const judged = (a: ComparedAssertion) => a.judge !== undefined || a.panel !== undefined;
const failedUnjudged = (a: ComparedAssertion) => !judged(a) && (a.status === 'failed' || (a.status === 'error' && a.judgeFingerprint === undefined));
/** A judge's own error (an outage, an unreadable answer) decided nothing about the reply: neither a pass nor a failure of its assertion. */
const judgeErred = (a: ComparedAssertion) => a.status === 'error' && (judged(a) || a.judgeFingerprint !== undefined);

/**
 * Each assertion of a case's trials that ran, by its place (turn, type, name and ordinal among its
 * like in the trial: the case's fingerprint is the same on both sides, so places match). Undefined
 * when a trial that ran has no assertions recorded (a case made before comparisons read them).
 */
function tally(c: ComparableCase): Map<string, Tally> | undefined {
  const out = new Map<string, Tally>();
  // A trial the target or the check ended (its `error`) has no assertions: it counts as a failure no judge graded.
  const ended: Tally = { name: TARGET_ERROR, kind: 'error', run: 0, unjudged: 0, failed: 0, judges: new Set() };
  out.set(TARGET_ERROR, ended);
  for (const t of c.trials) {
    if (t.verdict === 'interrupted') continue;
    if (!t.assertions) return undefined;
    ended.run += 1;
    if (t.error !== undefined) {
      ended.unjudged += 1;
      ended.failed += 1;
    }
    const ordinals = new Map<string, number>();
    for (const a of t.assertions) {
      const slot = JSON.stringify([a.turn ?? 0, a.kind, a.name]);
      const n = (ordinals.get(slot) ?? 0) + 1;
      ordinals.set(slot, n);
      const key = `${slot}#${n}`;
      let x = out.get(key);
      if (!x) out.set(key, (x = { name: a.name, kind: a.kind, ...(a.turn !== undefined ? { turn: a.turn } : {}), run: 0, unjudged: 0, failed: 0, judges: new Set() }));
      if (a.status === 'skipped' || judgeErred(a)) continue;
      x.run += 1;
      if (failedUnjudged(a)) x.unjudged += 1;
      if (a.status === 'failed' || a.status === 'error') x.failed += 1;
      if (judged(a) && a.judgeFingerprint) x.judges.add(a.judgeFingerprint.hash);
    }
  }
  return out;
}

/** The one judge an assertion was graded under on every trial, or undefined (none, or several). */
const onlyJudge = (t: Tally) => (t.judges.size === 1 ? [...t.judges][0] : undefined);

/**
 * Whether an assertion did worse in head, measured as its case is: on a passAt/passHat case (the same
 * reducer and k on both sides, k trials or more each) its own estimate dropped by more than epsilon, so
 * a pass@3 that holds is no regression; else it fails in a larger share of head's trials.
 */
function worseOf(base: ComparableCase, head: ComparableCase, epsilon: number) {
  const r = base.reducer && head.reducer && base.reducer.kind === head.reducer.kind && base.reducer.k === head.reducer.k ? head.reducer : undefined;
  return (b: { failed: number; run: number }, h: { failed: number; run: number }): boolean => {
    if (h.failed === 0) return false;
    if (r && b.run >= r.k && h.run >= r.k) {
      const estimate = ESTIMATORS[r.kind];
      return beyondEpsilon(estimate(b.run, b.run - b.failed, r.k) - estimate(h.run, h.run - h.failed, r.k), epsilon);
    }
    return h.failed * b.run > b.failed * h.run;
  };
}

/**
 * The assertions whose failures head cannot blame on a judge: each did worse in head than in the
 * baseline (`worseOf`; the baseline decided it at least once), and either
 * - no judge graded those failures (a deterministic assertion, gate or soft, or a judged one not asked),
 *   whatever happened to the case's judges; or
 * - `sameJudgeToo`, a judge graded them and it is the same judge (fingerprint) on every trial of both sides.
 * Empty when either side lacks its assertions. Pure.
 */
export function failedAssertions(base: ComparableCase, head: ComparableCase, sameJudgeToo: boolean, epsilon: number): FailedAssertion[] {
  const before = tally(base);
  const after = tally(head);
  if (!before || !after) return [];
  const worseBy = worseOf(base, head, epsilon);
  const out: FailedAssertion[] = [];
  for (const [key, h] of after) {
    const b = before.get(key);
    if (!b || b.run === 0 || h.run === 0) continue;
    const worse = (bf: number, hf: number) => worseBy({ failed: bf, run: b.run }, { failed: hf, run: h.run });
    const where = { name: h.name, kind: h.kind, ...(h.turn !== undefined ? { turn: h.turn } : {}) };
    if (worse(b.unjudged, h.unjudged)) out.push({ ...where, judged: false, base: { failed: b.unjudged, run: b.run }, head: { failed: h.unjudged, run: h.run } });
    else if (sameJudgeToo && onlyJudge(b) !== undefined && onlyJudge(b) === onlyJudge(h) && worse(b.failed, h.failed))
      out.push({ ...where, judged: true, base: { failed: b.failed, run: b.run }, head: { failed: h.failed, run: h.run } });
  }
  return out;
}

/** The one-sided Fisher p of the largest of these assertions' pass-rate drops (the smallest p). */
export function failedAssertionsP(failed: readonly FailedAssertion[]): number {
  return smallest(failed.map((a) => fisherDropP(a.base.run - a.base.failed, a.base.run, a.head.run - a.head.failed, a.head.run)));
}

/** `contains "Paris" failed 3/3, baseline 0/3 (no judge graded it)`: why these assertions made the case regressed. */
export function failedAssertionsLine(failed: readonly FailedAssertion[]): string {
  return failed
    .map((a) =>
      a.kind === 'error' && a.name === TARGET_ERROR
        ? `${TARGET_ERROR} in ${a.head.failed}/${a.head.run} trials, baseline ${a.base.failed}/${a.base.run}`
        : `${a.turn !== undefined ? `turn ${a.turn} ` : ''}${a.name} failed ${a.head.failed}/${a.head.run}, baseline ${a.base.failed}/${a.base.run} (${a.judged ? 'same judge' : 'no judge graded it'})`,
    )
    .join('; ');
}
