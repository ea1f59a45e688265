/**
 * Adaptive trials in a real in-process run: `repeat: { min: 3, max: 30 }` spends trials where the
 * verdict is in doubt. Two function targets draw their pass/fail from a seeded sequence indexed by
 * trial, so the run is the same whatever the scheduling.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import { caseOf } from '../support/results-helpers.js';
import { seededOutcomes } from '../support/seeded-random.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { repeat } from '../../src/cli/parse-number.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { terminalReporter } from '../../src/report/terminal.js';

afterAll(removeTempDirs);

const ENV = { OPENAI_API_KEY: 'test-key' };

/** Answers "ok" on the trials its seeded sequence passes, "no" on the others; counts its calls. */
function seededTarget(seed: number, p: number) {
  const outcomes = seededOutcomes(seed, p, 30);
  const calls: number[] = [];
  const target: TargetFunction = (_input, ctx) => {
    calls.push(ctx.trial.trial);
    return outcomes[ctx.trial.trial] ? 'ok' : 'no';
  };
  return { target, calls };
}

const SUITE = (passRate: number) =>
  [
    'suite: adaptive',
    'target: steady',
    `passRate: ${passRate}`,
    'repeat: { min: 3, max: 30 }',
    'cases:',
    '  - id: steady',
    '    target: steady',
    '    input: go',
    '    assert: [{ type: equals, value: ok }]',
    '  - id: coin',
    '    target: coin',
    '    input: go',
    '    assert: [{ type: equals, value: ok }]',
    '',
  ].join('\n');

describe('repeat: { min: 3, max: 30 }', () => {
  it.each([1, 4])('at concurrency %i, spends few trials on a target passing 95 in 100 times and many on a coin flip', async (concurrency) => {
    const steady = seededTarget(0x95, 0.95);
    const coin = seededTarget(0x50, 0.5);
    let out = '';
    const { results } = await runInProcess({
      files: { 'evals/adaptive.eval.yaml': SUITE(0.5) },
      config: { targets: { steady: steady.target, coin: coin.target } },
      flags: { concurrency },
      reporters: () => [terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: true })],
    });
    // The case line says how many trials the case used and why it stopped.
    expect(out).toContain('7/7 (needed 4)');
    expect(out).toContain('(adaptive 7 of 3..30 trials, decided)');
    expect(out).toContain('(adaptive 30 of 3..30 trials, undecided at max)');
    const s = caseOf(results, 'adaptive/steady');
    const c = caseOf(results, 'adaptive/coin');
    // The steady target clears 0.5 within a dozen trials; the coin flip sits on the threshold, never clears it, and runs to max.
    // (The seeded draws: the steady target passes its first 7 trials; the coin 11 of its 30.)
    expect(s.adaptive).toEqual({ min: 3, max: 30, used: 7, stoppedBy: 'decided' });
    expect(c.adaptive).toEqual({ min: 3, max: 30, used: 30, stoppedBy: 'max' });
    expect(c.passed).toBe(11);
    // The targets were called exactly for the trials used: one round at a time, nothing ran past the decision.
    expect(steady.calls.length).toBe(s.adaptive!.used);
    expect(coin.calls.length).toBe(30);
    expect(s).toMatchObject({ verdict: 'passed', planned: 30, notRun: 30 - s.adaptive!.used, notRunReason: 'early-stop', required: Math.ceil(0.5 * s.adaptive!.used) });
    // The coin's verdict at max is the plain one over its 30 trials.
    expect(c.required).toBe(15);
    expect(c.verdict).toBe(c.passed >= 15 ? 'passed' : 'failed');
  });

  it('decides a failing target below the threshold early, and runs adaptively even with early stop off', async () => {
    const bad = seededTarget(0x10, 0.1);
    const { results } = await runInProcess({
      files: { 'evals/adaptive.eval.yaml': ['suite: low', 'target: bad', 'passRate: 0.8', 'cases:', '  - id: bad', '    input: go', '    assert: [{ type: equals, value: ok }]', ''].join('\n') },
      config: { targets: { bad: bad.target } },
      flags: { concurrency: 2, earlyStop: false },
      selection: { repeat: { min: 3, max: 20 } },
    });
    const b = caseOf(results, 'low/bad');
    expect(b.verdict).toBe('failed');
    // 0 of 3: already wholly below 0.8 at the first look.
    expect(b.adaptive).toEqual({ min: 3, max: 20, used: 3, stoppedBy: 'decided' });
    expect(bad.calls.length).toBe(b.adaptive!.used);
  });
});

describe('adaptive trials over a matrix', () => {
  it("runs a case's variants round by round together: each runs as many trials as the slower to decide needs", async () => {
    const steady = seededTarget(0x95, 0.95);
    const coin = seededTarget(0x50, 0.5);
    const { results } = await runInProcess({
      files: {
        'evals/m.eval.yaml': [
          'suite: m',
          'matrix: { target: [steady, coin] }',
          'passRate: 0.5',
          'repeat: { min: 3, max: 30 }',
          'cases:',
          '  - id: one',
          '    input: go',
          '    assert: [{ type: equals, value: ok }]',
          '',
        ].join('\n'),
      },
      config: { targets: { steady: steady.target, coin: coin.target } },
      flags: { concurrency: 3 },
    });
    // Alone the steady variant would stop at 7 (above); beside the coin flip it runs the coin's 30, like for like.
    expect(results.cases.map((c) => [c.matrix?.target, c.adaptive?.used, c.adaptive?.stoppedBy])).toEqual([
      ['steady', 30, 'decided'],
      ['coin', 30, 'max'],
    ]);
    expect(steady.calls.length).toBe(30);
  });
});

describe('adaptive trials with --judge-batch', () => {
  it('sends one batch per round once the first min trials are judged, and stops when decided', async () => {
    const fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'ok', evidence: [] } }) });
    try {
      const { results } = await runInProcess({
        files: {
          'evals/b.eval.yaml': [
            'suite: b',
            'target: agent',
            'passRate: 0.5',
            'repeat: { min: 3, max: 10 }',
            'cases:',
            '  - id: judged',
            '    input: go',
            '    assert: [{ type: judge, criteria: answers }]',
            '',
          ].join('\n'),
        },
        config: { targets: { agent: () => 'answer' }, judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url }, concurrency: 2 },
        flags: { judgeBatch: true, cache: false },
        env: ENV,
        judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: ENV }),
      });
      const c = results.cases[0]!;
      expect(c.verdict).toBe('passed');
      expect(c.adaptive).toMatchObject({ stoppedBy: 'decided' });
      const used = c.adaptive!.used;
      expect(used).toBeGreaterThan(3);
      expect(used).toBeLessThan(10);
      // The first 3 trials in one batch, then one batch per round: a round is decided on judged trials.
      expect(fake.batches.creates.map((b) => b.lines)).toEqual([3, ...Array.from({ length: used - 3 }, () => 1)]);
    } finally {
      await fake.close();
    }
  });
});

describe('--repeat', () => {
  it('takes a count or a min..max range', () => {
    expect(repeat('5')).toBe(5);
    expect(repeat('3..20')).toEqual({ min: 3, max: 20 });
    expect(() => repeat('20..3')).toThrow(/min at most max/);
    expect(() => repeat('0..3')).toThrow(/whole number from 1/);
    expect(() => repeat('3..5000')).toThrow(/1,000/);
  });
});
