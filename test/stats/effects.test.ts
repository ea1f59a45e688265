import { describe, expect, it } from 'vitest';
import { compareEffects, type RejudgedBaseline } from '../../src/stats/effects.js';
import { compareRuns, type CompareOptions } from '../../src/stats/compare-runs.js';
import { fisherDropP } from '../../src/stats/fisher.js';
import type { ComparableCase } from '../../src/stats/compared-case.js';
import { comparableCase, judgedBy } from '../support/comparable-case.js';

const kase = comparableCase;

const OPTS: CompareOptions = { baseline: 'base.json', epsilon: 0.05, maxRegressions: 0 };
const P_5_TO_0 = fisherDropP(5, 5, 0, 5); // 1/252

function baseline(recorded: ComparableCase[], rejudged: ComparableCase[], cannot: [string, string][] = []): RejudgedBaseline {
  return { recorded, rejudged, cannot: new Map(cannot) };
}

describe('compareEffects (--rejudge)', () => {
  it('a stricter judge: the judge effect is 5/5 → 0/5 with its p, the agent effect none, and the comparison passes', () => {
    // Recorded by judge A: 5/5. Head's judge B fails the very same trials, and head's own trials too.
    const c = compareEffects(baseline([kase('strict', 5, 5), kase('lenient', 5, 5)], [kase('strict', 0, 5), kase('lenient', 5, 5)]), [kase('strict', 0, 5), kase('lenient', 5, 5)], OPTS);
    expect(c.failed).toBe(false);
    expect(c.counted).toBe(0);
    expect(c.counts).toMatchObject({ regressed: 0, unchanged: 2 });
    expect(c.rejudge).toEqual({ judges: [], lower: 1, higher: 0 });
    // The strict case is listed for its judge effect though the agent left it as it was; the lenient one is not.
    expect(c.cases.map((x) => x.key)).toEqual(['demo/strict']);
    const [strict] = c.cases;
    expect(strict).toMatchObject({ kind: 'unchanged', base: { passed: 0, run: 5 }, head: { passed: 0, run: 5 } });
    expect(strict!.counted).toBeUndefined();
    expect(strict!.judgeEffect).toMatchObject({ direction: 'lower', recorded: { passed: 5, run: 5 }, rejudged: { passed: 0, run: 5 }, reason: 'verdict passed → failed, score 1.00 → 0.00' });
    expect(strict!.judgeEffect!.pValue).toBeCloseTo(P_5_TO_0, 12);
    // The same files compared as recorded would have blamed the agent.
    expect(compareRuns([kase('strict', 5, 5)], [kase('strict', 0, 5)], OPTS).failed).toBe(true);
  });

  it('an agent that really broke: the agent effect is measured against the re-judged baseline and counts', () => {
    const c = compareEffects(baseline([kase('strict', 5, 5), kase('lenient', 5, 5)], [kase('strict', 0, 5), kase('lenient', 5, 5)]), [kase('strict', 0, 5), kase('lenient', 0, 5)], OPTS);
    expect(c.failed).toBe(true);
    expect(c.counted).toBe(1);
    const lenient = c.cases.find((x) => x.key === 'demo/lenient')!;
    expect(lenient).toMatchObject({ kind: 'regressed', counted: true, base: { passed: 5 }, head: { passed: 0 }, judgeEffect: { direction: 'none' } });
    expect(lenient.pValue).toBeCloseTo(P_5_TO_0, 12);
    // The strict case's drop is all the judge's: unchanged for the agent, never counted.
    expect(c.cases.find((x) => x.key === 'demo/strict')).toMatchObject({ kind: 'unchanged', judgeEffect: { direction: 'lower' } });
  });

  it('a more lenient judge hides no regression: 2/5 recorded, 5/5 re-judged, 2/5 head regresses', () => {
    const c = compareEffects(baseline([kase('a', 2, 5)], [kase('a', 5, 5)]), [kase('a', 2, 5)], OPTS);
    expect(c.cases[0]).toMatchObject({ kind: 'regressed', counted: true, judgeEffect: { direction: 'higher' } });
    expect(c.rejudge).toMatchObject({ lower: 0, higher: 1 });
    // As recorded, the two sides look the same.
    expect(compareRuns([kase('a', 2, 5)], [kase('a', 2, 5)], OPTS).counts.unchanged).toBe(1);
  });

  it('a case that could not be re-judged is listed with why, never counted, whatever head did', () => {
    const c = compareEffects(
      baseline([kase('safe', 5, 5), kase('ok', 5, 5)], [kase('ok', 5, 5)], [['demo/safe', 'recorded under trace: safe and its run folder was pruned']]),
      [kase('safe', 0, 5), kase('ok', 5, 5)],
      OPTS,
    );
    expect(c.failed).toBe(false);
    expect(c.counts['cannot-rejudge']).toBe(1);
    expect(c.cases).toEqual([
      {
        key: 'demo/safe',
        kind: 'cannot-rejudge',
        base: expect.objectContaining({ passed: 5 }),
        head: expect.objectContaining({ passed: 0 }),
        reason: 'cannot re-judge: recorded under trace: safe and its run folder was pruned',
      },
    ]);
    // Missing from the re-judged baseline without a stated reason: still set apart.
    expect(compareEffects(baseline([kase('x', 5, 5)], []), [kase('x', 0, 5)], OPTS).cases[0]).toMatchObject({ kind: 'cannot-rejudge', reason: 'cannot re-judge: missing from the re-judged baseline' });
  });

  it('a re-judge with judge errors measures no judge effect; the case could not compare', () => {
    const c = compareEffects(baseline([kase('a', 5, 5)], [kase('a', 0, 5, { judgeErrors: 5 })]), [kase('a', 0, 5)], OPTS);
    expect(c.cases[0]).toMatchObject({ kind: 'judge-errors' });
    expect(c.cases[0]!.judgeEffect).toBeUndefined();
    expect(c.failed).toBe(false);
  });

  it('edited, new and removed cases stay what they are', () => {
    const c = compareEffects(
      baseline([kase('edited', 5, 5), kase('gone', 5, 5)], [kase('edited', 5, 5), kase('gone', 5, 5)]),
      [kase('edited', 0, 5, { fingerprint: 'other' }), kase('fresh', 5, 5)],
      OPTS,
    );
    expect(c.cases.map((x) => [x.key, x.kind])).toEqual([
      ['demo/edited', 'changed'],
      ['demo/fresh', 'new'],
      ['demo/gone', 'removed'],
    ]);
  });

  it("names the re-judge's judges and what changed from the recorded judging, from the judge fingerprints", () => {
    const c = compareEffects(
      baseline([kase('a', 5, 5, { judgeFingerprint: judgedBy('judge-a') })], [kase('a', 0, 5, { judgeFingerprint: judgedBy('judge-b') })]),
      [kase('a', 0, 5, { judgeFingerprint: judgedBy('judge-b') })],
      OPTS,
    );
    expect(c.rejudge!.judges).toEqual(['openai:judge-b']);
    expect(c.cases[0]).toMatchObject({ kind: 'unchanged', judgeEffect: { direction: 'lower', judgeChanges: ['judge openai:judge-a → openai:judge-b'] } });
  });

  it("head judged otherwise than the re-judge is judge-changed, not counted, with a line that says to re-judge with head's judges", () => {
    const c = compareEffects(
      baseline([kase('a', 5, 5, { judgeFingerprint: judgedBy('judge-a') })], [kase('a', 5, 5, { judgeFingerprint: judgedBy('judge-a') })]),
      [kase('a', 0, 5, { judgeFingerprint: judgedBy('judge-b') })],
      OPTS,
    );
    expect(c.failed).toBe(false);
    expect(c.cases[0]).toMatchObject({ kind: 'judge-changed', judgeChanges: ['judge openai:judge-a → openai:judge-b'], judgeEffect: { direction: 'none' } });
    expect(c.warnings).toContain(
      "1 case was judged in head by another judge or criterion than the one that re-judged the baseline: not compared (re-judge with head's judges: `--judge`, or the config head ran with)",
    );
  });
});
