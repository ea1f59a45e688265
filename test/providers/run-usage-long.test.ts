/** A run's usage is summed without spreading its steps into one call: a long run (an imported trace) must not overflow the stack. */
import { describe, expect, it } from 'vitest';
import { silentPricing, usageOfRun } from '../../src/providers/run-usage.js';

describe('usageOfRun', () => {
  it('sums a run of 200,000 model-call steps (past the ~125,000 arguments a spread call takes)', () => {
    const steps = Array.from({ length: 200_000 }, () => ({ model: 'openai:gpt-5.4-mini', usage: { inputTokens: 2, outputTokens: 1 } }));
    const usage = usageOfRun({ reply: 'done', steps }, silentPricing({}));
    expect(usage).toMatchObject({ calls: 200_000, inputTokens: 400_000, outputTokens: 200_000 });
  });
});
