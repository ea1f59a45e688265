import { describe, expect, it } from 'vitest';
import { compareRuns, type CompareOptions } from '../../src/stats/compare-runs.js';
import { judgeChanges } from '../../src/stats/judge-changes.js';
import type { ComparableCase } from '../../src/stats/compared-case.js';
import type { CaseJudgeFingerprint } from '../../src/core/results-schema.js';
import { judgeCalledWith, judgeFingerprint, type JudgeWho } from '../../src/judges/judge-fingerprint.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';

const MINI: JudgeWho = { provider: 'openai', model: 'gpt-4.1-mini', calledWith: judgeCalledWith('openai:gpt-4.1-mini', 0) };
const NANO: JudgeWho = { provider: 'openai', model: 'gpt-4.1-nano', calledWith: judgeCalledWith('openai:gpt-4.1-nano', 0) };
const POLITE: JudgeAssertionSpec = { type: 'judge', criteria: 'Is polite' };

/** A case's judges, as the runner gathers them: one judged assertion per spec, in order. */
function judges(who: JudgeWho, ...specs: Array<[JudgeAssertionSpec, number?]>): CaseJudgeFingerprint {
  const assertions = specs.map(([spec, threshold = 0.7], i) => ({ key: `${spec.type}#${i + 1}`, name: `${spec.type} ${i + 1}`, judge: judgeFingerprint(who, spec, { threshold, trace: 'safe' }) }));
  return { hash: assertions.map((a) => a.judge.hash).join('+'), assertions };
}

function kase(passed: number, extra: Partial<ComparableCase> = {}): ComparableCase {
  return {
    suite: 'demo',
    id: 'a',
    verdict: passed === 5 ? 'passed' : 'failed',
    passed,
    score: { mean: passed / 5 },
    trials: Array.from({ length: 5 }, (_, i) => ({ verdict: i < passed ? 'passed' : 'failed' })),
    fingerprint: 'fp-a',
    ...extra,
  };
}
const OPTS: CompareOptions = { baseline: 'main', epsilon: 0.05, maxRegressions: 0 };

describe('judgeChanges', () => {
  it('names what changed, in words', () => {
    expect(judgeChanges(judges(MINI, [POLITE]), judges(NANO, [POLITE]))).toEqual(['judge openai:gpt-4.1-mini → openai:gpt-4.1-nano']);
    expect(judgeChanges(judges(MINI, [POLITE]), judges(MINI, [{ ...POLITE, criteria: 'Is polite and brief' }]))).toEqual(['criteria edited']);
    expect(judgeChanges(judges(MINI, [POLITE]), judges({ ...MINI, system: 'You are strict.' }, [POLITE]))).toEqual(['persona set']);
    expect(judgeChanges(judges({ ...MINI, system: 'a' }, [POLITE]), judges({ ...MINI, system: 'b' }, [POLITE]))).toEqual(['persona changed']);
    expect(judgeChanges(judges(MINI, [POLITE]), judges(MINI, [{ ...POLITE, scale: 10 }]))).toEqual(['scale 1 → 10']);
    expect(judgeChanges(judges(MINI, [POLITE]), judges(MINI, [POLITE, 0.9]))).toEqual(['threshold 0.7 → 0.9']);
    expect(judgeChanges(judges(MINI, [POLITE]), judges({ ...MINI, calledWith: judgeCalledWith('openai:gpt-4.1-mini', 0.7) }, [POLITE]))).toEqual(['judge temperature 0 → 0.7']);
    const base = judges(MINI, [POLITE]);
    const olderPrompt = { ...base, assertions: [{ ...base.assertions[0]!, judge: { ...base.assertions[0]!.judge, prompt: '000000000000', hash: 'older' } }] };
    expect(judgeChanges(olderPrompt, base)).toEqual(['judge prompt version changed']);
  });

  it('says a change all judged assertions share once, and names the assertion of one that only some have', () => {
    const q: JudgeAssertionSpec = { type: 'closedQa', question: 'Is it short?' };
    expect(judgeChanges(judges(MINI, [POLITE], [q]), judges(NANO, [POLITE], [{ ...q, question: 'Is it brief?' }]))).toEqual([
      'judge openai:gpt-4.1-mini → openai:gpt-4.1-nano',
      'closedQa 2: question edited',
    ]);
    expect(judgeChanges(judges(MINI, [POLITE]), judges(MINI, [POLITE], [q]))).toEqual(['closedQa 2: judged assertion added']);
  });
});

describe('compareRuns with judge fingerprints', () => {
  it('the same case judged by another judge is judge-changed: listed with what changed, never counted, never failing', () => {
    const c = compareRuns([kase(5, { judgeFingerprint: judges(MINI, [POLITE]) })], [kase(0, { judgeFingerprint: judges(NANO, [POLITE]) })], OPTS);
    expect(c.cases).toEqual([expect.objectContaining({ key: 'demo/a', kind: 'judge-changed', judgeChanges: ['judge openai:gpt-4.1-mini → openai:gpt-4.1-nano'] })]);
    expect(c.cases[0]!.counted).toBeUndefined();
    expect(c.cases[0]!.pValue).toBeUndefined();
    expect(c).toMatchObject({ counted: 0, failed: false, counts: { 'judge-changed': 1, regressed: 0 } });
    expect(c.warnings).toEqual([expect.stringMatching(/^1 case touched by a judge change: not compared/)]);
  });

  it('an edited case stays changed (it wins over a judge change); an unchanged judge compares as before', () => {
    const edited = compareRuns([kase(5, { judgeFingerprint: judges(MINI, [POLITE]) })], [kase(0, { fingerprint: 'fp-a2', judgeFingerprint: judges(NANO, [POLITE]) })], OPTS);
    expect(edited.cases[0]!.kind).toBe('changed');
    const same = compareRuns([kase(5, { judgeFingerprint: judges(MINI, [POLITE]) })], [kase(0, { judgeFingerprint: judges(MINI, [POLITE]) })], OPTS);
    expect(same.cases[0]).toMatchObject({ kind: 'regressed', counted: true });
  });

  it('a baseline without judge fingerprints (an older file) compares as today', () => {
    const c = compareRuns([kase(5)], [kase(0, { judgeFingerprint: judges(NANO, [POLITE]) })], OPTS);
    expect(c.cases[0]).toMatchObject({ kind: 'regressed', counted: true });
    expect(c.failed).toBe(true);
    expect(c.warnings.some((w) => w.includes('judge change'))).toBe(false);
  });
});
