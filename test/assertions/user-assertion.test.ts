import { describe, expect, it, vi } from 'vitest';
import { evaluateUserAssertion, userAssertionOf, userOptionsProblems, userAssertionsByName, type UserAssertion } from '../../src/assertions/user-assertion.js';
import { makeCtx } from './helpers.js';

const wordCount: UserAssertion = {
  apiVersion: 1,
  name: 'wordCount',
  schema: { type: 'object', properties: { max: { type: 'integer', minimum: 0 } }, additionalProperties: false },
  evaluate: (reply, options) => {
    const words = reply.split(/\s+/).filter(Boolean).length;
    return { pass: words <= (options.max as number), message: `${words} words` };
  },
};

describe('a user assertion module', () => {
  it('is taken when it default-exports a versioned descriptor', () => {
    expect(userAssertionOf(wordCount)).toBe(wordCount);
  });

  it('is refused, saying why, when its shape is wrong', () => {
    expect(userAssertionOf(undefined)).toMatch(/no default export/);
    expect(userAssertionOf(Object.assign(Object.create(null) as object, { [Symbol.toStringTag]: 'Module', helper: 1 }))).toMatch(/no default export/);
    expect(userAssertionOf({ ...wordCount, apiVersion: 2 })).toMatch(/apiVersion is 2; this version of agent-evals reads apiVersion 1/);
    expect(userAssertionOf({ ...wordCount, name: 'two words' })).toMatch(/not a valid type name/);
    expect(userAssertionOf({ ...wordCount, evaluate: 'no' })).toMatch(/evaluate is not a function/);
    expect(userAssertionOf({ ...wordCount, schema: { type: 'objekt' } })).toMatch(/options schema/);
  });
});

describe('its options', () => {
  it('are checked against its JSON Schema', () => {
    expect(userOptionsProblems(wordCount, { max: 3 })).toEqual([]);
    expect(userOptionsProblems(wordCount, { max: 'three' }).join()).toMatch(/max.*integer/);
    expect(userOptionsProblems(wordCount, { maxx: 3 }).join()).toMatch(/maxx/);
  });

  it('or by its validate function, whose throw is a problem too', () => {
    const checked: UserAssertion = { ...wordCount, schema: (o) => ((o as { max?: unknown }).max === undefined ? 'max is required' : undefined) };
    expect(userOptionsProblems(checked, {})).toEqual(['max is required']);
    expect(userOptionsProblems(checked, { max: 1 })).toEqual([]);
    const throwing: UserAssertion = {
      ...wordCount,
      schema: () => {
        throw new Error('boom');
      },
    };
    expect(userOptionsProblems(throwing, {})).toEqual(['its validate function threw: boom']);
  });
});

describe('running it', () => {
  it('scores what evaluate answers, with its message', async () => {
    const loaded = userAssertionsByName([wordCount]);
    const pass = await evaluateUserAssertion({ type: 'userAssertion', name: 'wordCount', options: { max: 3 } }, makeCtx({ reply: 'one two' }), loaded);
    expect(pass).toMatchObject({ score: 1, reason: '2 words' });
    const fail = await evaluateUserAssertion({ type: 'userAssertion', name: 'wordCount', options: { max: 1 } }, makeCtx({ reply: 'one two' }), loaded);
    expect(fail.score).toBe(0);
    expect(fail.message).toContain('2 words');
  });

  it('fails the assertion, never the run, when evaluate throws', async () => {
    const loaded = userAssertionsByName([{ ...wordCount, evaluate: () => Promise.reject(new Error('index out of range')) }]);
    const outcome = await evaluateUserAssertion({ type: 'userAssertion', name: 'wordCount', options: { max: 1 } }, makeCtx(), loaded);
    expect(outcome).toEqual({ score: 0, message: 'wordCount threw: index out of range' });
  });

  it('fails naming itself when evaluate never settles within the bound', async () => {
    vi.useFakeTimers();
    try {
      const loaded = userAssertionsByName([{ ...wordCount, evaluate: () => new Promise<boolean>(() => {}) }]);
      const pending = evaluateUserAssertion({ type: 'userAssertion', name: 'wordCount', options: { max: 1 } }, makeCtx(), loaded, { ms: 3000, signal: new AbortController().signal });
      await vi.advanceTimersByTimeAsync(3000);
      expect(await pending).toEqual({ score: 0, message: "wordCount: did not settle within 3000 ms (the case's timeoutMs)" });
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails naming the assertion when none of that name is loaded', async () => {
    const outcome = await evaluateUserAssertion({ type: 'userAssertion', name: 'wordCout' }, makeCtx(), userAssertionsByName([wordCount]));
    expect(outcome.score).toBe(0);
    expect(outcome.message).toMatch(/no user assertion named "wordCout" is loaded \(loaded: wordCount\)/);
  });
});
