/**
 * A judge answer cut at the token limit, or refused, is a judge error that says which and names the
 * model — never "not JSON", which would send the user to the prompt instead of the limit or the
 * content. On both providers (through their real SDKs and fake servers), for the inference judge
 * and the agent judge.
 */
import { describe, expect, it } from 'vitest';
import { JudgeProtocolError } from '../../src/core/errors.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import { executeTrial } from '../../src/runner/loop/trial.js';
import { functionTarget } from '../../src/targets/function-target.js';
import type { Scripted } from '../support/fake-server.js';
import { fakeJudge, judgeRequest, rejection, useFakes } from './agent-judge-helpers.js';
import { judgeRef, judgeService, MODEL, plannedCase, pricing, REPLY, type ProviderName } from './helpers.js';

const fakes = useFakes();
const rubric: JudgeAssertionSpec = { type: 'judge', criteria: 'states the shipping status', label: 'status rubric' };

async function judged(provider: ProviderName, answer: Scripted) {
  const f = provider === 'openai' ? await fakes.openai([answer]) : await fakes.anthropic([answer]);
  const c = plannedCase({ assertions: [rubric] });
  const trial = await executeTrial(c, 0, {
    target: functionTarget('agent', () => REPLY),
    judges: judgeService({ judge: judgeRef(provider, f.url) }),
    pricing,
    skipJudgesOnGateFailure: true,
    signal: new AbortController().signal,
  });
  return trial.assertions[0]!;
}

const PARTIAL = '{"score": 0.9, "reason": "The reply says the order has sh';

const CASES: Array<{ provider: ProviderName; name: string; answer: Scripted; says: string }> = [
  {
    provider: 'openai',
    name: 'finish_reason length',
    answer: { text: PARTIAL, finishReason: 'length', usage: { output: 64, reasoning: 40 } },
    says: 'answer cut at max tokens (64), 40 of them spent reasoning',
  },
  {
    provider: 'openai',
    name: 'a structured-output refusal',
    answer: { text: "I'm sorry, I can't help with grading this.", finishReason: 'refusal' },
    says: `refused to answer: "I'm sorry, I can't help with grading this."`,
  },
  { provider: 'openai', name: 'the content filter', answer: { text: '', finishReason: 'content_filter' }, says: 'refused to answer (content filter)' },
  { provider: 'anthropic', name: 'stop_reason max_tokens', answer: { text: PARTIAL, finishReason: 'max_tokens', usage: { output: 64 } }, says: 'answer cut at max tokens (64)' },
  { provider: 'anthropic', name: 'stop_reason refusal', answer: { text: 'I cannot assess this content.', finishReason: 'refusal' }, says: 'refused to answer: "I cannot assess this content."' },
];

describe('an inference judge answer that was cut or refused', () => {
  it.each(CASES)('$provider: $name is named, with the model, and is not "not JSON"', async ({ provider, answer, says }) => {
    const result = await judged(provider, answer);
    expect(result).toMatchObject({ status: 'error', severity: 'gate', score: 0 });
    expect(result.message).toContain(`judge ${provider}:${MODEL[provider]}: ${says}`);
    expect(result.message).not.toMatch(/not JSON|judge response invalid/);
    // What the model did say is kept, and the tokens were spent.
    expect(result.raw).toBe((answer as { text: string }).text);
    expect(result.judge?.usage.calls).toBe(1);
  });

  it('an answer that finished normally but is not JSON still says "not JSON"', async () => {
    const result = await judged('openai', { text: 'Looks fine to me.' });
    expect(result.message).toMatch(/not JSON/);
    expect(result.message).not.toMatch(/cut at max tokens|refused/);
  });
});

describe('an agent judge whose reply was cut or refused', () => {
  it('a cut names the limit and the model, with what was spent', async () => {
    const fake = await fakes.openai([{ text: 'The reply is corr', finishReason: 'length', usage: { output: 32 } }]);
    const err = await rejection(fakeJudge(fake, { options: { maxTokensPerCall: 32 } }).judge(judgeRequest()));
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message).toBe("judge openai:gpt-4.1-mini: answer cut at max tokens (32) before it was complete; raise the judge model's maxTokens");
    expect(err.spent?.usage).toMatchObject({ calls: 1, outputTokens: 32 });
  });

  it('a refusal says refused, with its words, instead of "answered in plain text"', async () => {
    const fake = await fakes.anthropic([{ text: 'I will not evaluate this.', finishReason: 'refusal' }]);
    const err = await rejection(fakeJudge(fake, { model: { provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: fake.url } }).judge(judgeRequest()));
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message).toBe('judge anthropic:claude-haiku-4-5: refused to answer: "I will not evaluate this."');
  });
});
