/**
 * Which judge answers in a run (in-process, as `agent-evals run` runs it): assertion `judge:` > case `judge:` > suite `judge:` >
 * config `judge` > env EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL, and `--judge` over all of them.
 * Asserted by which fake server received each case's request and for which model.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import type { FakeProvider } from '../support/fake-server.js';
import { explain, runFixtureInProcess } from '../support/run-fixture-in-process.js';
import { anthropicEnv, fakeAnthropic, fakeOpenAI, openaiEnv } from './cli-helpers.js';
import { userText } from './helpers.js';

const INPUTS = ['RESOLVE-ASSERTION', 'RESOLVE-CASE', 'RESOLVE-SUITE', 'RESOLVE-CONFIG', 'RESOLVE-ANTHROPIC'] as const;

/** `input → provider:model` for every request both fakes received. */
function routed(servers: Record<string, FakeProvider>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [provider, f] of Object.entries(servers)) {
    for (const body of f.bodies) {
      const user = userText(body);
      const input = INPUTS.filter((i) => user.includes(i));
      expect(input, user).toHaveLength(1);
      expect(out[input[0]!], `two requests for ${input[0]}`).toBeUndefined();
      out[input[0]!] = `${provider}:${body.model}`;
    }
  }
  return out;
}

async function servers(t: TestContext) {
  const openai = await fakeOpenAI();
  const anthropic = await fakeAnthropic();
  t.onTestFinished(async () => {
    await openai.close();
    await anthropic.close();
  });
  return { openai, anthropic, env: { ...openaiEnv(openai), ...anthropicEnv(anthropic) } };
}

describe.concurrent('judge model resolution', () => {
  it('assertion > case > suite > config, with the env judge lowest', async (t: TestContext) => {
    const s = await servers(t);
    const r = await runFixtureInProcess('judges-resolve', {
      judge: 'openai:config-judge',
      env: { ...s.env, EVALS_JUDGE_PROVIDER: 'anthropic', EVALS_JUDGE_MODEL: 'env-judge' },
    });
    expect(r.code, explain(r)).toBe(0);
    expect(routed({ openai: s.openai, anthropic: s.anthropic })).toEqual({
      'RESOLVE-ASSERTION': 'openai:assertion-judge',
      'RESOLVE-CASE': 'openai:case-judge',
      'RESOLVE-SUITE': 'openai:suite-judge',
      'RESOLVE-CONFIG': 'openai:config-judge',
      'RESOLVE-ANTHROPIC': 'anthropic:claude-haiku-4-5',
    });
    // The results name the judge that answered.
    const res = r.results();
    const judgeOf = (id: string) => res.cases.find((c) => c.id === id)!.trials[0]!.assertions[0]!.judge;
    expect(judgeOf('suite-level')).toMatchObject({ provider: 'openai', model: 'suite-judge' });
    expect(judgeOf('assertion-anthropic')).toMatchObject({ provider: 'anthropic', model: 'claude-haiku-4-5' });
  });

  it('with no config judge, EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL judge what nothing else names', async (t: TestContext) => {
    const s = await servers(t);
    const r = await runFixtureInProcess('judges-resolve', { env: { ...s.env, EVALS_JUDGE_PROVIDER: 'anthropic', EVALS_JUDGE_MODEL: 'env-judge' } });
    expect(r.code, explain(r)).toBe(0);
    expect(routed({ openai: s.openai, anthropic: s.anthropic })).toEqual({
      'RESOLVE-ASSERTION': 'openai:assertion-judge',
      'RESOLVE-CASE': 'openai:case-judge',
      'RESOLVE-SUITE': 'openai:suite-judge',
      'RESOLVE-CONFIG': 'anthropic:env-judge',
      'RESOLVE-ANTHROPIC': 'anthropic:claude-haiku-4-5',
    });
  });

  it('--judge overrides every level for the run', async (t: TestContext) => {
    const s = await servers(t);
    const r = await runFixtureInProcess('judges-resolve', {
      override: 'anthropic:override-judge',
      judge: 'openai:config-judge',
      env: { ...s.env, EVALS_JUDGE_PROVIDER: 'openai', EVALS_JUDGE_MODEL: 'env-judge' },
    });
    expect(r.code, explain(r)).toBe(0);
    expect(s.openai.count).toBe(0);
    expect(routed({ openai: s.openai, anthropic: s.anthropic })).toEqual(Object.fromEntries(INPUTS.map((i) => [i, 'anthropic:override-judge'])));
  });
});
