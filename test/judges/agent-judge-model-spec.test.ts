/**
 * An agent judge's `modelSpec`: what `doctor` checks for it (endpoint and key variable included).
 * A plain config gives it before any call; a factory only from its latest judgment.
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
