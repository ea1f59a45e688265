/**
 * The output a judge grades is bounded: a 1 MB reply reaches the judge (real SDK, fake server) as
 * its first 100,000 characters and a visible marker, not as a 250,000-token prompt.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { boundGradedOutput } from '../../src/judges/graded-output.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { judgeRef, judgeService, plannedCase, sampleRun, splitPrompt, trialContext, userText } from './helpers.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

describe('the graded output is bounded', () => {
  it('sends a 1,000,000-character reply as its first 100,000 characters and a truncation marker', async () => {
    const f = await startFakeOpenAI({ script: [{ json: { score: 1, reason: 'ok', evidence: [] } }] });
    fakes.push(f);
    const service = judgeService({ judge: judgeRef('openai', f.url) });
    const reply = 'x'.repeat(1_000_000);
    await service.grade({ type: 'judge', criteria: 'is polite' }, trialContext(plannedCase(), sampleRun(reply)));
    const user = userText(f.bodies[0]);
    expect(user.length).toBeLessThan(110_000);
    const { block } = splitPrompt(user);
    expect(block.output).toBe(`${'x'.repeat(100_000)}\n…[truncated: 1,000,000 characters, showing the first 100,000]`);
  });

  it('honours judgeMaxOutputChars and leaves a short reply whole', async () => {
    const f = await startFakeOpenAI({ script: [{ json: { score: 1, reason: 'ok', evidence: [] } }, { json: { score: 1, reason: 'ok', evidence: [] } }] });
    fakes.push(f);
    const service = judgeService({ judge: judgeRef('openai', f.url), config: { judgeMaxOutputChars: 10 } });
    await service.grade({ type: 'judge', criteria: 'is polite' }, trialContext(plannedCase(), sampleRun('abcdefghijKLMNOP')));
    await service.grade({ type: 'judge', criteria: 'is kind' }, trialContext(plannedCase(), sampleRun('short')));
    expect(splitPrompt(userText(f.bodies[0])).block.output).toBe('abcdefghij\n…[truncated: 16 characters, showing the first 10]');
    expect(splitPrompt(userText(f.bodies[1])).block.output).toBe('short');
  });

  it('never cuts a surrogate pair in half', () => {
    expect(boundGradedOutput('ab😀cd', 3)).toBe('ab\n…[truncated: 6 characters, showing the first 2]');
  });
});
