/**
 * An agent judge gets the run's settings like any other judge: the config's `pricing` prices its
 * calls, an unpriced model warns once with the same text as an inference judge's, and the provider
 * it builds at its first judgment (grade time) is capped by the run's concurrency.
 */
import { describe, expect, it } from 'vitest';
import { limiterKeyFor } from '../../src/providers/create.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { UserConfig } from '../../src/config/define-config.js';
import { runInProcess } from '../support/run-in-process.js';
import { fakeJudge, submit, TEST_ENV, turn, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();

const UNPRICED = 'my-unpriced-judge';

/** `n` cases answered by a function target, each graded by the config's judge. */
function suite(n: number): Record<string, string> {
  const cases = Array.from({ length: n }, (_, i) => `  - id: c${i}\n    input: hello ${i}\n    assert:\n      - { type: judge, criteria: "Is polite." }`);
  return { 'evals/polite.eval.yaml': `suite: polite\ntarget: fn\ncases:\n${cases.join('\n')}\n` };
}

function run(judge: UserConfig['judge'], over: Partial<UserConfig> = {}, cases = 2) {
  return runInProcess({
    files: suite(cases),
    config: { targets: { fn: () => 'Thank you, happy to help.' }, judge, ...over },
    flags: { cache: false },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: { ...TEST_ENV } }),
  });
}

const unpricedWarnings = (warnings: string[]) => warnings.filter((w) => w.includes('no price known'));

describe('an agent judge in a run', () => {
  it('warns once on an unpriced model, with the same text as an inference judge', async () => {
    const inferenceFake = await fakes.openai(() => ({ json: { score: 1, reason: 'polite', evidence: [] }, usage: { input: 1000, output: 100 } }));
    const inference = await run({ provider: 'openai', model: UNPRICED, baseURL: inferenceFake.url });

    const agentFake = await fakes.openai(() => turn([submit(1)], { input: 1000, output: 100 }));
    const agent = await run(fakeJudge(agentFake, { model: { provider: 'openai', model: UNPRICED, baseURL: agentFake.url }, guards: { maxSteps: 2 } }));

    expect(agent.exitCode).toBe(0);
    expect(agentFake.count).toBe(2);
    expect(unpricedWarnings(inference.warnings)).toHaveLength(1);
    expect(unpricedWarnings(agent.warnings)).toEqual(unpricedWarnings(inference.warnings));
    expect(agent.results.summary.usage.judge.costUsd ?? null).toBeNull();
  });

  it("is priced by the config's `pricing`: tokens x the configured price", async () => {
    const fake = await fakes.openai(() => turn([submit(1)], { input: 1000, output: 100 }));
    const judge = fakeJudge(fake, { model: { provider: 'openai', model: UNPRICED, baseURL: fake.url }, guards: { maxSteps: 2 } });
    const { results, warnings, exitCode } = await run(judge, { pricing: { [`openai:${UNPRICED}`]: { input: 2, output: 10 } } });

    expect(exitCode).toBe(0);
    expect(unpricedWarnings(warnings)).toEqual([]);
    // Two judgments of 1000 input and 100 output tokens at $2 / $10 per 1M tokens.
    expect(results.summary.usage.judge).toMatchObject({ calls: 2, inputTokens: 2000, outputTokens: 200 });
    expect(results.summary.usage.judge.costUsd).toBeCloseTo((2 * (1000 * 2 + 100 * 10)) / 1e6, 12);
  });

  it("builds its provider at grade time, and that limiter is capped by the run's concurrency", async () => {
    const fake = await fakes.openai(() => turn([submit(1)], { input: 10, output: 2 }));
    const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseURL: fake.url };
    const judge = fakeJudge(fake, { model, guards: { maxSteps: 2 } });
    const { exitCode, limiters } = await run(judge, { concurrency: 3 }, 4);

    expect(exitCode).toBe(0);
    expect(fake.count).toBe(4);
    // The factory judge made its provider (and limiter) only at its first judgment, after the run began.
    expect(limiters.get(limiterKeyFor(model, TEST_ENV))?.max).toBe(3);
  });
});
