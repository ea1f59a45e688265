/**
 * `similarTo` from inside a test file: `evaluate(agent).similarTo(...)` and a `check`'s `t.similarTo(...)`
 * with the offline embedder, graded like the file's `similarTo` (after the gates, as judge usage).
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from 'agent-evals';

const VALUE = 'The meeting has been moved to Friday afternoon.';

describe('evaluate(agent).similarTo()', () => {
  it('passes a paraphrase and fails an unrelated reply with the fake embedder', async () => {
    const paraphrase = await evaluate(() => 'Your meeting is now on Friday afternoon: we moved it.')
      .input('When is the meeting?')
      .similarTo(VALUE, 0.8, 'fake')
      .run();
    expect(paraphrase.passed).toBe(true);
    const scored = paraphrase.trials[0]!.assertions[0]!;
    expect(scored).toMatchObject({ kind: 'similarTo', status: 'passed', judge: { provider: 'fake' } });

    const unrelated = await evaluate(() => 'Bananas are a good source of potassium.')
      .input('When is the meeting?')
      .config({ embeddingModel: 'fake' })
      .similarTo(VALUE, 0.8)
      .run();
    expect(unrelated.trials[0]!.assertions[0]).toMatchObject({ kind: 'similarTo', status: 'failed' });
    expect(unrelated.trials[0]!.assertions[0]!.score).toBeLessThan(0.2);
  });
});
