/**
 * Usage in a run (in-process, as `agent-evals run` runs it): the target's tokens (a function target's `ctx.usage`, a command target's
 * AgentRun) and the judge's (what the fake server reported) are kept apart per assertion, trial,
 * case and run, sum exactly, and are priced from the bundled table. And one warning when the judge
 * is the target's own model.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import type { Usage } from '../../src/core/usage.js';
import type { Scripted } from '../support/fake-server.js';
import { caseOf, fakeOpenAI, openaiEnv } from './cli-helpers.js';
import { explain, runFixtureInProcess } from '../support/run-fixture-in-process.js';
import { userText } from './helpers.js';

/** USD per token of the bundled price table (per 1M / 1e6). */
const MINI = { input: 0.4 / 1e6, output: 1.6 / 1e6 };
const NANO = { input: 0.1 / 1e6, output: 0.4 / 1e6 };

/** Scripted judge usage, by criterion. */
const JUDGE_TOKENS = { 'USAGE-CRITERIA-ONE': { input: 1000, output: 50 }, 'USAGE-CRITERIA-TWO': { input: 2000, output: 70 } };

function expectUsage(actual: Usage, expected: { calls: number; inputTokens: number; outputTokens: number; costUsd: number }) {
  expect(actual).toMatchObject({ calls: expected.calls, inputTokens: expected.inputTokens, outputTokens: expected.outputTokens, cachedInputTokens: 0, reasoningTokens: 0 });
  expect(actual.costUsd).not.toBeNull();
  expect(actual.costUsd!).toBeCloseTo(expected.costUsd, 12);
}

function sum(parts: Usage[]) {
  return {
    calls: parts.reduce((s, u) => s + u.calls, 0),
    inputTokens: parts.reduce((s, u) => s + u.inputTokens, 0),
    outputTokens: parts.reduce((s, u) => s + u.outputTokens, 0),
    costUsd: parts.reduce((s, u) => s + (u.costUsd ?? NaN), 0),
  };
}

describe.concurrent('target and judge usage', () => {
  it('appear apart per assertion, trial, case and run, and sum exactly to what the fake server reported', async (t: TestContext) => {
    const reported: Array<{ input: number; output: number }> = [];
    const f = await fakeOpenAI((body): Scripted => {
      const user = userText(body);
      const key = (Object.keys(JUDGE_TOKENS) as Array<keyof typeof JUDGE_TOKENS>).find((k) => user.includes(k))!;
      reported.push(JUDGE_TOKENS[key]);
      return { json: { score: 0.9, reason: 'fine', evidence: [] }, usage: JUDGE_TOKENS[key] };
    });
    t.onTestFinished(() => f.close());
    const r = await runFixtureInProcess('judges-cli', {
      selection: { filter: ['usage/metered', 'usage-cmd/command'], repeat: 2 },
      flags: { earlyStop: false },
      cache: false,
      env: openaiEnv(f),
      judge: 'openai:gpt-4.1-mini',
    });
    expect(r.code, explain(r)).toBe(0);
    const res = r.results();
    expect(f.count).toBe(6);
    expect(reported).toHaveLength(6);

    // Per assertion: exactly the one request it made, priced as openai:gpt-4.1-mini.
    const metered = caseOf(res, 'usage/metered');
    const command = caseOf(res, 'usage-cmd/command');
    for (const c of [metered, command]) {
      for (const trial of c.trials) {
        for (const a of trial.assertions) {
          const tokens = a.name.includes('USAGE-CRITERIA-ONE') ? JUDGE_TOKENS['USAGE-CRITERIA-ONE'] : JUDGE_TOKENS['USAGE-CRITERIA-TWO'];
          expect(a.judge?.model).toBe('gpt-4.1-mini');
          expectUsage(a.judge!.usage, { calls: 1, inputTokens: tokens.input, outputTokens: tokens.output, costUsd: tokens.input * MINI.input + tokens.output * MINI.output });
        }
        // Per trial: the judge's usage is its assertions' sum; the target's is what the target reported.
        expectUsage(trial.usage.judge, sum(trial.assertions.map((a) => a.judge!.usage)));
      }
    }
    for (const trial of metered.trials) expectUsage(trial.usage.target, { calls: 2, inputTokens: 107, outputTokens: 23, costUsd: 107 * NANO.input + 23 * NANO.output });
    for (const trial of command.trials) expectUsage(trial.usage.target, { calls: 1, inputTokens: 50, outputTokens: 5, costUsd: 50 * NANO.input + 5 * NANO.output });

    // Per case: the sum of its trials, each role apart.
    for (const c of [metered, command]) {
      expectUsage(c.usage.target, sum(c.trials.map((x) => x.usage.target)));
      expectUsage(c.usage.judge, sum(c.trials.map((x) => x.usage.judge)));
    }

    // Per run: the judge's tokens are exactly what the server reported; total = target + judge.
    const serverIn = reported.reduce((s, u) => s + u.input, 0);
    const serverOut = reported.reduce((s, u) => s + u.output, 0);
    const u = res.summary.usage;
    expectUsage(u.judge, { calls: 6, inputTokens: serverIn, outputTokens: serverOut, costUsd: serverIn * MINI.input + serverOut * MINI.output });
    expectUsage(u.target, { calls: 6, inputTokens: 2 * 107 + 2 * 50, outputTokens: 2 * 23 + 2 * 5, costUsd: 314 * NANO.input + 56 * NANO.output });
    expectUsage(u.total, sum([u.target, u.judge]));
    expect(u.total.inputTokens).toBe(314 + serverIn);
    // Not the same model (the target ran gpt-4.1-nano), though one family: that warning names both.
    expect(res.summary.warnings.filter((w) => w.includes("is also the target's model"))).toEqual([]);
  });

  it("one warning when the judge is the target's own model, however many trials", async (t: TestContext) => {
    const f = await fakeOpenAI();
    t.onTestFinished(() => f.close());
    const r = await runFixtureInProcess('judges-cli', {
      selection: { filter: ['self/judged'], repeat: 3 },
      flags: { earlyStop: false },
      cache: false,
      env: openaiEnv(f),
      judge: 'openai:gpt-4.1-mini',
    });
    expect(r.code, explain(r)).toBe(0);
    expect(f.count).toBe(3);
    const warnings = r.results().summary.warnings.filter((w) => w.includes('openai:gpt-4.1-mini') && /target/.test(w));
    expect(warnings).toHaveLength(1);
    const printed = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /warning/i.test(l) && l.includes('openai:gpt-4.1-mini'));
    expect(printed.length).toBeGreaterThanOrEqual(1);
  });
});
