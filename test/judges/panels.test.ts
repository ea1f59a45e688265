/**
 * Judge panels (`judge: { panel: [...], aggregate }`), run in-process as `agent-evals run` runs them:
 * three fake judges, each answering from its own fixtures file, judge every assertion as they would
 * alone; the aggregate decides; each member's score and reason is kept in the results.
 */
import { describe, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/define-config.js';
import type { AssertionResult } from '../../src/core/results-schema.js';
import type { Judge } from '../../src/core/judge-port.js';
import { explain, runProjectInProcess } from '../support/run-fixture-in-process.js';

/** A fixtures file whose one entry answers every judged assertion with `score`. */
const answers = (score: number, reason: string) => `- score: ${score}\n  reason: ${reason}\n`;

const files = {
  'a.yaml': answers(0.9, 'A says yes'),
  'b.yaml': answers(0.2, 'B says no'),
  'c.yaml': answers(0.8, 'C says mostly'),
};

/** A judge object (as a TS config may give) whose every call fails: the member that errs. */
const broken: Judge = {
  provider: 'custom',
  model: 'down',
  judge: () => Promise.reject(new Error('judge down')),
};

const config = (judge: unknown): UserConfig =>
  ({
    evals: ['*.eval.yaml'],
    targets: { fixed: () => 'Your order shipped on Monday.' },
    judges: { a: { provider: 'fake', fixtures: 'a.yaml' }, b: { provider: 'fake', fixtures: 'b.yaml' }, c: { provider: 'fake', fixtures: 'c.yaml' }, broken },
    judge,
  }) as UserConfig;

const evalFile = (assert: string) => `suite: panel\ntarget: fixed\ncases:\n  - id: one\n    input: where is my order?\n    assert:\n      - ${assert}\n`;

async function judged(assert: string, judge: unknown): Promise<{ a: AssertionResult; stdout: string; code: number }> {
  const r = await runProjectInProcess({ files: { ...files, 'p.eval.yaml': evalFile(assert) } }, config(judge), { cache: false, verbose: true });
  const a = r.results().cases[0]!.trials[0]!.assertions[0]!;
  expect(a, explain(r)).toBeDefined();
  return { a, stdout: r.stdout, code: r.code };
}

const PANEL = { panel: ['a', 'b', 'c'] };

describe.concurrent('a panel of three fake judges scoring 0.9, 0.2, 0.8 at threshold 0.7', () => {
  it('majority passes (two of three pass) and reports each member', async () => {
    const { a, stdout, code } = await judged('{ type: judge, criteria: says when it shipped, threshold: 0.7 }', { ...PANEL, aggregate: 'majority' });
    expect(code).toBe(0);
    expect(a.status).toBe('passed');
    // The lower median: the score a strict majority (2 of 3) reaches.
    expect(a.score).toBe(0.8);
    expect(a.panel).toMatchObject({
      aggregate: 'majority',
      members: [
        { judge: 'a', status: 'passed', score: 0.9, reason: 'A says yes' },
        { judge: 'b', status: 'failed', score: 0.2, reason: 'B says no' },
        { judge: 'c', status: 'passed', score: 0.8, reason: 'C says mostly' },
      ],
    });
    expect(a.message).toContain('2 of 3 judges pass');
    expect(a.judge).toMatchObject({ provider: 'panel', model: 'majority(a, b, c)' });
    // One line each in the terminal.
    expect(stdout).toMatch(/a\s+0\.90\s+passed/);
    expect(stdout).toMatch(/b\s+0\.20\s+failed/);
  });

  it('mean fails: (0.9 + 0.2 + 0.8) / 3 = 0.633 < 0.7', async () => {
    const { a } = await judged('{ type: judge, criteria: says when it shipped, threshold: 0.7 }', { ...PANEL, aggregate: 'mean' });
    expect(a.status).toBe('failed');
    expect(a.score).toBeCloseTo(1.9 / 3, 10);
    expect(a.panel?.members.map((m) => m.score)).toEqual([0.9, 0.2, 0.8]);
  });

  it('min fails: 0.2 < 0.7; at threshold 0.2 it passes', async () => {
    const strict = await judged('{ type: judge, criteria: says when it shipped, threshold: 0.7 }', { ...PANEL, aggregate: 'min' });
    expect(strict.a).toMatchObject({ status: 'failed', score: 0.2 });
    const lenient = await judged('{ type: judge, criteria: says when it shipped, threshold: 0.2 }', { ...PANEL, aggregate: 'min' });
    expect(lenient.a).toMatchObject({ status: 'passed', score: 0.2 });
  });

  it('the aggregate defaults to majority; a panel on the assertion itself wins over the config judge', async () => {
    const { a } = await judged('{ type: judge, criteria: says when it shipped, threshold: 0.7, judge: { panel: [a, b, c] } }', 'b');
    expect(a).toMatchObject({ status: 'passed', score: 0.8, panel: { aggregate: 'majority' } });
  });
});

describe.concurrent('a panel member error', () => {
  it('is a judge error for the assertion; the aggregate over the others is reported, not the verdict', async () => {
    const { a, code, stdout } = await judged('{ type: judge, criteria: says when it shipped, threshold: 0.7 }', { panel: ['a', 'broken', 'c'], aggregate: 'majority' });
    expect(code).toBe(1);
    expect(a.status).toBe('error');
    expect(a.message).toContain('judge call failed: panel member broken: judge down');
    expect(stdout).toContain('broken error judge down');
    expect(a.panel?.members.map((m) => m.status)).toEqual(['passed', 'error', 'passed']);
    // Majority over 0.9 and 0.8: the 2nd highest of two (⌊2/2⌋+1 = 2) is 0.8, which would pass.
    expect(a.panel?.rest).toEqual({ score: 0.8, status: 'passed', members: 2 });
    expect(a.message).toContain("the 2 other judges' majority: 0.80 (passed; not the verdict)");
  });
});

describe("the panel's agreement over a run (Fleiss' κ)", () => {
  it('is reported in the run summary and the terminal, matching a hand-computed value', async () => {
    // Four cases; each member's score per case (threshold 0.7; P pass, F fail):
    //          one      two      three    four
    //   a      0.9 P    0.9 P    0.1 F    0.1 F
    //   b      0.2 F    0.9 P    0.1 F    0.9 P
    //   c      0.8 P    0.9 P    0.1 F    0.1 F
    // [pass, fail] per item: [2,1] [3,0] [0,3] [1,2]. With n = 3 raters, P_i = Σ n_ij(n_ij − 1) / 6:
    // 2/6, 1, 1, 2/6, so P̄ = (8/3) / 4 = 2/3; p_pass = 6/12 = p_fail, P_e = 1/2;
    // κ = (2/3 − 1/2) / (1 − 1/2) = 1/3.
    const perCase = (scores: number[]) => scores.map((s, i) => `- case: panel/${['one', 'two', 'three', 'four'][i]}\n  score: ${s}\n`).join('');
    const cases = ['one', 'two', 'three', 'four']
      .map((id) => `  - id: ${id}\n    input: where is my order?\n    assert:\n      - { type: judge, criteria: says when it shipped, threshold: 0.7 }\n`)
      .join('');
    const r = await runProjectInProcess(
      {
        files: {
          'a.yaml': perCase([0.9, 0.9, 0.1, 0.1]),
          'b.yaml': perCase([0.2, 0.9, 0.1, 0.9]),
          'c.yaml': perCase([0.8, 0.9, 0.1, 0.1]),
          'p.eval.yaml': `suite: panel\ntarget: fixed\ncases:\n${cases}`,
        },
      },
      config(PANEL),
      { cache: false },
    );
    const panels = r.results().summary.panels;
    expect(panels, explain(r)).toHaveLength(1);
    expect(panels![0]!.judges).toEqual(['a', 'b', 'c']);
    expect(panels![0]!.items).toBe(4);
    expect(panels![0]!.kappa).toBeCloseTo(1 / 3, 12);
    expect(r.stdout).toContain("Panel     a, b, c: Fleiss' κ 0.33 over 4 judged assertions");
  });
});

describe.concurrent("a panel's fingerprint", () => {
  it("holds each member's fingerprint and the aggregate: changing either is a judge change", async () => {
    const judgeAssert = '{ type: judge, criteria: says when it shipped, threshold: 0.7 }';
    const [abc, abcMean, abb] = await Promise.all([judged(judgeAssert, PANEL), judged(judgeAssert, { ...PANEL, aggregate: 'mean' }), judged(judgeAssert, { panel: ['a', 'b', 'fake:other'] })]);
    const f = abc.a.judgeFingerprint!;
    expect(f).toMatchObject({ provider: 'panel', model: 'majority(a, b, c)', panel: { aggregate: 'majority' } });
    expect(f.panel!.members).toHaveLength(3);
    expect(abcMean.a.judgeFingerprint!.hash).not.toBe(f.hash);
    expect(abb.a.judgeFingerprint!.hash).not.toBe(f.hash);
    expect(abb.a.judgeFingerprint!.model).toBe('majority(a, b, fake:other)');
  });
});
