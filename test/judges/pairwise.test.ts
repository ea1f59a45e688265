/**
 * Pairwise judging runs both orders by default: a judge that always prefers whatever is shown
 * first flips with the order, which is reported as a tie marked `positionInconsistent`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Script } from '../support/fake-server.js';
import { judgeRef, judgeService, plannedCase, REPLY, sampleRun, splitPrompt, trialContext, userText } from './helpers.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const OTHER = 'OTHER-REPLY: we will get back to you.';

async function pairwise(script: Script, extra: Partial<Extract<JudgeAssertionSpec, { type: 'pairwise' }>> = {}) {
  const f = await startFakeOpenAI({ script });
  fakes.push(f);
  const service = judgeService({ judge: judgeRef('openai', f.url) });
  const { result, usage } = await service.grade({ type: 'pairwise', comparedTo: OTHER, criteria: 'which reply helps the customer more', ...extra }, trialContext(plannedCase(), sampleRun()));
  return { result, usage, fake: f };
}

const alwaysFirst = () => ({ json: { winner: 'A', reason: 'x', evidence: [] } });
/** Prefers the graded reply wherever it is placed. */
const prefersReply = (body: any) => ({ json: { winner: splitPrompt(userText(body)).block.response_a === REPLY ? 'A' : 'B', reason: 'x', evidence: [] } });
const prefersOther = (body: any) => ({ json: { winner: splitPrompt(userText(body)).block.response_a === REPLY ? 'B' : 'A', reason: 'x', evidence: [] } });

describe('pairwise in both orders', () => {
  it('a judge that always prefers the first position gives a tie (0.5) marked positionInconsistent, over 2 requests', async () => {
    const { result, usage, fake } = await pairwise(alwaysFirst);
    expect(fake.count).toBe(2);
    expect(result.score).toBe(0.5);
    expect(result.positionInconsistent).toBe(true);
    // Only an outright win passes (default threshold 1).
    expect(result.status).toBe('failed');
    expect(result.threshold).toBe(1);
    expect(result.message).toMatch(/position/);
    expect(usage.calls).toBe(2);
    expect(result.judge?.usage.calls).toBe(2);
    // The two requests showed the graded reply in both positions.
    const blocks = fake.bodies.map((b) => splitPrompt(userText(b)).block);
    expect(blocks.map((b) => [b.response_a, b.response_b])).toEqual([
      [REPLY, OTHER],
      [OTHER, REPLY],
    ]);
  });

  it('positionSwap: false asks once and takes the answer as given', async () => {
    const { result, fake } = await pairwise(alwaysFirst, { positionSwap: false });
    expect(fake.count).toBe(1);
    expect(result.score).toBe(1);
    expect(result.positionInconsistent).toBe(false);
    expect(result.status).toBe('passed');
  });

  it('a consistent preference for the graded reply is a win (1) and passes', async () => {
    const { result, fake } = await pairwise(prefersReply);
    expect(fake.count).toBe(2);
    expect(result).toMatchObject({ score: 1, status: 'passed', positionInconsistent: false });
  });

  it('a consistent preference for the other reply is a loss (0)', async () => {
    const { result } = await pairwise(prefersOther);
    expect(result).toMatchObject({ score: 0, status: 'failed', positionInconsistent: false });
  });

  it("prefer: 'reference' turns a consistent loss of the reply into a win", async () => {
    const { result } = await pairwise(prefersOther, { prefer: 'reference' });
    expect(result).toMatchObject({ score: 1, status: 'passed' });
  });

  it('a tie answered in both orders is a consistent tie (0.5)', async () => {
    const { result } = await pairwise(() => ({ json: { winner: 'tie', reason: 'x', evidence: [] } }));
    expect(result).toMatchObject({ score: 0.5, positionInconsistent: false, status: 'failed' });
  });

  it('the comparison defaults to the case reference', async () => {
    const f = await startFakeOpenAI({ script: prefersReply });
    fakes.push(f);
    const service = judgeService({ judge: judgeRef('openai', f.url) });
    await service.grade({ type: 'pairwise' }, trialContext(plannedCase({ reference: 'CASE-REFERENCE-PAIR' }), sampleRun()));
    expect(splitPrompt(userText(f.bodies[0])).block.response_b).toBe('CASE-REFERENCE-PAIR');
  });
});
