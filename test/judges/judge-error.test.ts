/**
 * A judge scores or fails with a typed JudgeError carrying what it spent; it never builds an
 * assertion result. The judge service hands that failure on as a judgment for the runner to grade.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeError } from '../../src/core/errors.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { judgeRef, judgeService, plannedCase, sampleRun, trialContext } from './helpers.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('a judge answering out of contract', () => {
  it('fails with a JudgeError of kind response that carries the usage of its call', async () => {
    fake = await startFakeOpenAI({ script: [{ text: 'Looks great to me.', usage: { input: 400, output: 20 } }] });
    const service = judgeService({ judge: judgeRef('openai', fake.url) });
    const judgment = await service.judge({ type: 'judge', criteria: 'polite' }, trialContext(plannedCase(), sampleRun()));
    expect(judgment.kind).toBe('failed');
    if (judgment.kind !== 'failed') return;
    expect(judgment.error).toBeInstanceOf(JudgeError);
    expect(judgment.error.kind).toBe('response');
    expect(judgment.error.spent?.usage).toMatchObject({ calls: 1, inputTokens: 400, outputTokens: 20 });
    expect(judgment.by).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
    // What the runner grades is the judgment, not a result the judge built.
    expect('result' in judgment).toBe(false);
  });
});
