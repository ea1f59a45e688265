/**
 * `run --judge-noise 3`: a real in-process run whose judge is the fake OpenAI server, reached through
 * the real SDK. One judged assertion is answered from a scripted sequence of scores around its 0.7
 * threshold, the other always 0.9. The re-asks must reach the server (the cache is off for them), the
 * noisy assertion must show flips and the steady one none, and the case that the noisy judge failed
 * is marked as a miss within judge noise in every reporter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { runRedactor } from '../../src/providers/run-redactor.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { junitReporter } from '../../src/report/junit.js';
import { githubReporter } from '../../src/report/github.js';
import { htmlReporter } from '../../src/report/html.js';
import { caseJudgeNoise } from '../../src/runner/loop/judge-noise.js';
import { judgeNoise } from '../../src/cli/parse-number.js';
import type { TrialResult } from '../../src/core/results-schema.js';
import type { Scripted } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import { judgeRef, userText } from './helpers.js';
import { useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();
afterAll(removeTempDirs);

const ENV = { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key' };

const SUITE = `suite: noise
target: agent
cases:
  - id: shipped
    input: Where is my order A1049?
    assert:
      - { type: judge, label: noisy, criteria: "NOISY: says when the order arrives." }
      - { type: judge, label: steady, criteria: "STEADY: mentions the order number." }
`;

/** Scores around the 0.7 threshold, in a fixed order: the first answer fails, the re-asks come out both ways. */
const NOISY = [0.6, 0.75, 0.65, 0.8, 0.55, 0.72, 0.68, 0.9, 0.6, 0.71];

describe('--judge-noise 3', () => {
  it('re-asks each judged assertion 3 times past the cache and reports flips for the noisy judge only', async () => {
    let noisy = 0;
    const fake = await fakes.openai((body): Scripted => {
      const text = userText(body);
      const score = text.includes('NOISY:') ? NOISY[noisy++ % NOISY.length]! : 0.9;
      return { json: { score, reason: `scored ${score}`, evidence: [] }, usage: { input: 200, output: 20 } };
    });
    let out = '';
    const github: string[] = [];
    const result = await runInProcess({
      files: { 'evals/noise.eval.yaml': SUITE },
      config: { targets: { agent: () => 'Order A1049 shipped yesterday; it arrives on Friday.' }, judge: judgeRef('openai', fake.url), concurrency: 1 },
      flags: { earlyStop: false, judgeNoise: 3 },
      selection: { repeat: 2 },
      env: ENV,
      judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: ENV, redactor: runRedactor(settings) }),
      reporters: (dir) => [
        terminalReporter({ out: { write: (t: string) => (out += t) }, live: false, verbose: false }),
        junitReporter({ path: join(dir, 'junit.xml') }),
        githubReporter({ out: { write: (t: string) => github.push(t) }, summaryFile: undefined }),
        htmlReporter({ path: join(dir, 'report.html'), outputDir: join(dir, '.agent-evals'), version: 'test' }),
      ],
    });
    const c = result.results.cases[0]!;

    // Each assertion: one first answer, shared by both trials through the run's cache (same reply), then
    // 3 re-asks on each of the 2 trials that reach the server although the same question was answered.
    expect(fake.requests).toHaveLength(2 * (1 + 2 * 3));
    const byCriterion = (tag: string) => fake.requests.filter((r) => userText(r.body).includes(tag)).length;
    expect(byCriterion('NOISY:')).toBe(7);
    expect(byCriterion('STEADY:')).toBe(7);
    // Cached first answers cost nothing; every re-ask is a paid call in the case's judge usage.
    expect(c.trials[1]!.assertions.every((a) => a.judge?.cached)).toBe(true);
    expect(c.usage.judge.calls).toBe(2 + 12);

    const noise = Object.fromEntries(c.judgeNoise!.assertions.map((a) => [a.name, a]));
    // The first answer 0.6 fails; the re-asks 0.75 0.65 0.8 | 0.55 0.72 0.68 pass three times: 3 flips of 6.
    expect(noise['noisy']).toMatchObject({ trials: 2, reasks: 6, flips: 3, flipRate: 0.5, scoreRange: expect.closeTo(0.2, 9) });
    expect(noise['noisy']!.scoreStddev).toBeGreaterThan(0);
    expect(noise['steady']).toEqual({ name: 'steady', trials: 2, reasks: 6, flips: 0, flipRate: 0, scoreStddev: 0, scoreRange: 0 });
    expect(c.trials[0]!.assertions.find((a) => a.name === 'noisy')!.reasks).toEqual([
      { status: 'passed', score: 0.75 },
      { status: 'failed', score: 0.65 },
      { status: 'passed', score: 0.8 },
    ]);

    // The case missed through the noisy judge: a miss within its judge's noise, in every reporter.
    expect(c.verdict).toBe('scored'); // judged assertions are soft by default: a miss, not a failure
    expect(c.judgeNoise!.withinNoise).toBe(true);
    expect(out).toContain('within judge noise');
    expect(out).toContain('judge noise: noisy flipped 3 of 6 re-asks (50%)');
    expect(out).toContain('judge noise: steady flipped 0 of 6 re-asks (0%)');
    expect(readFileSync(join(result.dir, 'junit.xml'), 'utf8')).toContain('within judge noise');
    expect(github.join('')).toMatch(/title=noise\/shipped scored [^:]*within judge noise/);
    // (GitHub's workflow-command data escapes %.)
    expect(github.join('')).toContain('judge noise: noisy flipped 3 of 6 re-asks (50%25)');
    const html = readFileSync(join(result.dir, 'report.html'), 'utf8');
    expect(html).toContain('within judge noise');
    expect(html).toContain('"withinNoise":true');
  });
});

describe('caseJudgeNoise', () => {
  const trial = (status: 'passed' | 'failed', reasks: Array<'passed' | 'failed' | 'error'>): TrialResult =>
    ({
      index: 0,
      verdict: status,
      assertions: [
        {
          name: 'j',
          kind: 'judge',
          severity: 'gate',
          status,
          score: status === 'passed' ? 0.8 : 0.6,
          threshold: 0.7,
          weight: 1,
          message: '',
          judge: { provider: 'p', model: 'm', usage: {} },
          reasks: reasks.map((s) => ({ status: s, score: s === 'passed' ? 0.8 : 0 })),
        },
      ],
    }) as unknown as TrialResult;

  it('leaves re-asks that erred out of the flip rate, and marks a case only for a miss by a judge that flips', () => {
    const failed = caseJudgeNoise([trial('failed', ['passed', 'error', 'failed'])])!;
    expect(failed.assertions[0]).toMatchObject({ reasks: 2, flips: 1, flipRate: 0.5 });
    expect(failed.withinNoise).toBe(true);
    // Flips on a trial that passed: no miss to doubt.
    expect(caseJudgeNoise([trial('passed', ['failed'])])!.withinNoise).toBe(false);
    // A miss the judge repeats every time: not noise.
    expect(caseJudgeNoise([trial('failed', ['failed', 'failed'])])!.withinNoise).toBe(false);
    // A passing case that lost a trial to a flipping judge: a regression it shows would be within noise.
    expect(caseJudgeNoise([trial('passed', ['passed']), trial('failed', ['passed'])])!.withinNoise).toBe(true);
  });

  it('--judge-noise takes 1 to 20', () => {
    expect(judgeNoise('3')).toBe(3);
    expect(() => judgeNoise('0')).toThrow(/1 to 20/);
  });
});
