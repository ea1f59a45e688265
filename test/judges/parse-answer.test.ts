/** Unit tests of src/judges/parse-answer.ts: the judge's answer as JSON. */
import { describe, expect, it } from 'vitest';
import { parseJudgeAnswer } from '../../src/judges/parse-answer.js';

describe('parseJudgeAnswer', () => {
  it('reads a whole JSON answer, surrounding whitespace allowed', () => {
    expect(parseJudgeAnswer('  {"score": 0.5, "reason": "ok"}\n')).toEqual({ score: 0.5, reason: 'ok' });
  });

  it('takes the first JSON object inside prose', () => {
    expect(parseJudgeAnswer('My verdict is {"score": 1, "reason": "fine"} and that is final. {"score": 0}')).toEqual({ score: 1, reason: 'fine' });
  });

  it('takes the JSON object inside a code fence', () => {
    const text = 'Sure.\n```json\n{\n  "answer": "yes",\n  "reason": "it does",\n  "evidence": ["a"]\n}\n```\n';
    expect(parseJudgeAnswer(text)).toEqual({ answer: 'yes', reason: 'it does', evidence: ['a'] });
  });

  it('is not fooled by braces and escaped quotes inside strings, or by nested objects', () => {
    const text = 'Result: {"reason": "uses \\"{\\" and } in text", "dimensions": {"tone": 0.5}, "score": 0.7} done';
    expect(parseJudgeAnswer(text)).toEqual({ reason: 'uses "{" and } in text', dimensions: { tone: 0.5 }, score: 0.7 });
  });

  it('skips a balanced but invalid candidate and goes on to the next object', () => {
    expect(parseJudgeAnswer('{not json} then {"score": 0.2}')).toEqual({ score: 0.2 });
  });

  it('throws "not JSON" when there is no JSON object at all', () => {
    expect(() => parseJudgeAnswer('I would rate it highly.')).toThrow(/not JSON/);
    expect(() => parseJudgeAnswer('{"score": 0.5')).toThrow(/not JSON/);
    expect(() => parseJudgeAnswer('')).toThrow(/not JSON/);
  });
});
