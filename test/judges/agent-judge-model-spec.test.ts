/**
 * An agent judge's `modelSpec` and `ownEnv()`: what `doctor` checks for it (endpoint and key variable
 * included, and the environment its calls read them from). A plain config gives them before any call;
 * a factory only from its latest judgment.
 */
import { describe, expect, it } from 'vitest';
import { agentJudge } from '../../src/judges/agent-judge.js';
import { fakeJudge, judgeRequest, submit, turn, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();

describe('agentJudge().modelSpec', () => {
  it("a plain config's spec, baseURL and apiKeyEnv included, before any call", () => {
    const judge = agentJudge({ model: { provider: 'openai', model: 'gpt-4.1-nano', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'AUDITOR_KEY' }, guards: { maxSteps: 2 } });
    expect(judge.modelSpec).toMatchObject({ provider: 'openai', model: 'gpt-4.1-nano', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'AUDITOR_KEY' });
  });

  it("a factory's is unknown until it judged, then its latest configuration's", async () => {
    const fake = await fakes.openai([turn([submit(1)])]);
    const judge = fakeJudge(fake, { guards: { maxSteps: 2 } });
    expect(judge.modelSpec).toBeUndefined();
    await judge.judge(judgeRequest());
    expect(judge.modelSpec).toMatchObject({ provider: 'openai', baseURL: fake.url });
  });
});

describe('agentJudge().ownEnv()', () => {
  it("a plain config's options.env before any call, never in the judge serialized (a reference's key)", () => {
    const env = { OPENAI_API_KEY: 'sk-own-env-secret-0123456789' };
    const judge = agentJudge({ model: 'openai:gpt-4.1-nano', guards: { maxSteps: 2 }, options: { env } });
    expect(judge.ownEnv()).toBe(env);
    expect(JSON.stringify(judge)).not.toContain('sk-own-env-secret');
    expect(agentJudge({ model: 'openai:gpt-4.1-nano' }).ownEnv()).toBeUndefined();
  });

  it("a factory's is unknown until it judged, then its latest configuration's", async () => {
    const fake = await fakes.openai([turn([submit(1)])]);
    const judge = fakeJudge(fake, { guards: { maxSteps: 2 } });
    expect(judge.ownEnv()).toBeUndefined();
    await judge.judge(judgeRequest());
    expect(judge.ownEnv()?.OPENAI_API_KEY).toBeDefined();
  });
});
