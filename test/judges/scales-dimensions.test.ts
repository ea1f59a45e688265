/**
 * Scales and dimensions: `scale: 10` answers normalise by /10, `min` is on the assertion's own
 * scale, one call returns every dimension, and a dimension below its minimum fails the assertion
 * even when the overall score passes. All dimensions are recorded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { judgeAssertionSchemas, type JudgeAssertionSpec } from '../../src/judges/spec.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { judgeRef, judgeService, plannedCase, sampleRun, trialContext } from './helpers.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function grade(assertion: JudgeAssertionSpec, answer: Scripted) {
  const f = await startFakeOpenAI({ script: [answer] });
  fakes.push(f);
  const service = judgeService({ judge: judgeRef('openai', f.url) });
  const { result } = await service.grade(assertion, trialContext(plannedCase(), sampleRun()));
  return { result, fake: f };
}

describe('scales', () => {
  it('scale: 10 with an answer of 8 scores 0.8, and the schema asks for 1..10', async () => {
    const { result, fake } = await grade({ type: 'judge', criteria: 'helpful', scale: 10 }, { json: { score: 8, reason: 'good', evidence: [] } });
    expect(result).toMatchObject({ score: 0.8, threshold: 0.7, status: 'passed' });
    expect(fake.bodies[0].response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 1, maximum: 10 });
  });

  it('min: 7 on scale 10 is a threshold of 0.7: 6 fails, 7 passes', async () => {
    const six = await grade({ type: 'judge', criteria: 'helpful', scale: 10, min: 7 }, { json: { score: 6, reason: 'meh', evidence: [] } });
    expect(six.result).toMatchObject({ threshold: 0.7, score: 0.6, status: 'failed' });
    const seven = await grade({ type: 'judge', criteria: 'helpful', scale: 10, min: 7 }, { json: { score: 7, reason: 'ok', evidence: [] } });
    expect(seven.result).toMatchObject({ threshold: 0.7, score: 0.7, status: 'passed' });
  });

  it('the default scale is 0..1 with threshold 0.7; an explicit threshold wins', async () => {
    const a = await grade({ type: 'judge', criteria: 'helpful' }, { json: { score: 0.69, reason: 'almost', evidence: [] } });
    expect(a.result).toMatchObject({ threshold: 0.7, status: 'failed' });
    expect(a.fake.bodies[0].response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 0, maximum: 1 });
    const b = await grade({ type: 'judge', criteria: 'helpful', threshold: 0.6 }, { json: { score: 0.69, reason: 'almost', evidence: [] } });
    expect(b.result).toMatchObject({ threshold: 0.6, status: 'passed' });
  });

  it('on scale 10 an answer of 0 is out of range (an error), as is 11', async () => {
    for (const score of [0, 11]) {
      const { result } = await grade({ type: 'judge', criteria: 'helpful', scale: 10 }, { json: { score, reason: 'x', evidence: [] } });
      expect(result).toMatchObject({ status: 'error', severity: 'gate' });
    }
  });

  it('closedQa is a choice: no → 0, the raw choice recorded', async () => {
    const { result } = await grade({ type: 'closedQa', question: 'is it polite?' }, { json: { answer: 'no', reason: 'curt', evidence: [] } });
    expect(result).toMatchObject({ score: 0, choice: 'no', status: 'failed' });
  });

  it('factuality maps each documented choice to its score', async () => {
    const expected = { subset: 0.5, superset: 0.75, same: 1, immaterial: 1, conflict: 0 };
    for (const [choice, score] of Object.entries(expected)) {
      const { result } = await grade({ type: 'factuality', reference: 'shipped Monday' }, { json: { choice, reason: 'x', evidence: [] } });
      expect(result, choice).toMatchObject({ score, choice });
    }
  });
});

describe('dimensions', () => {
  const dims = { accuracy: 0.7, tone: 0.6 };

  it('one call asks for every dimension; all are recorded with their minimums', async () => {
    const { result, fake } = await grade({ type: 'judge', criteria: 'helpful', dimensions: dims }, { json: { score: 0.9, reason: 'good', evidence: [], dimensions: { accuracy: 0.8, tone: 0.65 } } });
    expect(fake.count).toBe(1);
    const schema = fake.bodies[0].response_format.json_schema.schema;
    expect(schema.required).toContain('dimensions');
    expect(schema.properties.dimensions.required).toEqual(['accuracy', 'tone']);
    expect(result.status).toBe('passed');
    expect(result.dimensions).toEqual({ accuracy: { score: 0.8, min: 0.7 }, tone: { score: 0.65, min: 0.6 } });
  });

  it('a dimension below its minimum fails the assertion although the overall score passes', async () => {
    const { result } = await grade(
      { type: 'judge', criteria: 'helpful', dimensions: dims },
      { json: { score: 0.95, reason: 'accurate but rude', evidence: [], dimensions: { accuracy: 0.9, tone: 0.5 } } },
    );
    expect(result.score).toBe(0.95);
    expect(result.status).toBe('failed');
    expect(result.message).toMatch(/tone/);
    expect(result.message).not.toMatch(/accuracy/);
    expect(result.dimensions).toEqual({ accuracy: { score: 0.9, min: 0.7 }, tone: { score: 0.5, min: 0.6 } });
  });

  it('dimensions on scale 10 are normalised like the score', async () => {
    const { result } = await grade(
      { type: 'summarizes', source: 'the source', scale: 10, dimensions: { coverage: 5 } },
      { json: { score: 9, reason: 'good', evidence: [], dimensions: { coverage: 4 } } },
    );
    expect(result.score).toBe(0.9);
    expect(result.dimensions).toEqual({ coverage: { score: 0.4, min: 0.5 } });
    expect(result.status).toBe('failed');
  });
});

describe('dimension minimums are on the assertion scale, like min', () => {
  it('scale: 10 with accuracy: 7 means 0.7: an answer of 6 fails, 7 passes', async () => {
    const assertion: JudgeAssertionSpec = { type: 'judge', criteria: 'helpful', scale: 10, dimensions: { accuracy: 7 } };
    const six = await grade(assertion, { json: { score: 9, reason: 'x', evidence: [], dimensions: { accuracy: 6 } } });
    expect(six.result).toMatchObject({ status: 'failed', score: 0.9, dimensions: { accuracy: { score: 0.6, min: 0.7 } } });
    expect(six.result.message).toContain('accuracy 6/10 < 7/10');
    const seven = await grade(assertion, { json: { score: 9, reason: 'x', evidence: [], dimensions: { accuracy: 7 } } });
    expect(seven.result).toMatchObject({ status: 'passed', dimensions: { accuracy: { score: 0.7, min: 0.7 } } });
  });

  it('a dimension minimum above the scale is a load error naming the dimension', () => {
    const schema = judgeAssertionSchemas[0];
    expect(schema.safeParse({ type: 'judge', criteria: 'c', scale: 10, dimensions: { accuracy: 7 } }).success).toBe(true);
    const onOne = schema.safeParse({ type: 'judge', criteria: 'c', dimensions: { accuracy: 7 } });
    expect(onOne.success).toBe(false);
    expect(onOne.error!.issues[0]).toMatchObject({ path: ['dimensions', 'accuracy'] });
    expect(onOne.error!.issues[0]!.message).toMatch(/above the scale \(1\)/);
    expect(schema.safeParse({ type: 'judge', criteria: 'c', scale: 10, dimensions: { accuracy: 11 } }).success).toBe(false);
  });
});

describe('named choices on a free rubric', () => {
  const choices = { excellent: 1, acceptable: 0.6, poor: 0 };

  it('asks for one of the labels, scores the pick from the map, and records the raw choice', async () => {
    const { result, fake } = await grade({ type: 'judge', criteria: 'helpful', choices }, { json: { choice: 'acceptable', reason: 'answers, vaguely', evidence: [] } });
    const schema = fake.bodies[0].response_format.json_schema.schema;
    expect(schema.properties.choice).toEqual({ type: 'string', enum: ['excellent', 'acceptable', 'poor'] });
    expect(schema.properties.score).toBeUndefined();
    expect(fake.bodies[0].messages.at(-1).content).toContain('Answer with the one CHOICE that best describes how the output meets the criteria: "excellent", "acceptable", "poor".');
    // 0.6 is below the default threshold of 0.7.
    expect(result).toMatchObject({ score: 0.6, choice: 'acceptable', threshold: 0.7, status: 'failed' });
    const lenient = await grade({ type: 'judgeAgainst', criteria: 'helpful', reference: 'shipped', choices, threshold: 0.5 }, { json: { choice: 'acceptable', reason: 'ok', evidence: [] } });
    expect(lenient.result).toMatchObject({ score: 0.6, choice: 'acceptable', status: 'passed' });
  });

  it('a label outside the map is an invalid judge answer (gate error, raw kept)', async () => {
    const { result } = await grade({ type: 'judge', criteria: 'helpful', choices }, { json: { choice: 'great', reason: 'x', evidence: [] } });
    expect(result).toMatchObject({ status: 'error', severity: 'gate' });
    expect(result.message).toContain('judge response invalid: "choice" must be one of excellent, acceptable, poor (got "great")');
    expect(result.raw).toContain('great');
  });
});
