import { describe, it, expect } from 'vitest';
import { check, loadErrors, makeCtx } from './helpers.js';

const reply = 'Your Refund for order A1049 is on its way.';
const ctx = makeCtx({ reply });

describe('equals', () => {
  it('passes on the exact reply', () => {
    expect(check({ type: 'equals', value: reply }, ctx)).toEqual({ score: 1, message: `equals ${JSON.stringify(reply)}: reply is equal` });
  });
  it('fails on any difference and says where', () => {
    const out = check({ type: 'equals', value: 'Your refund' }, makeCtx({ reply: 'Your Refund' }));
    expect(out).toEqual({ score: 0, message: 'equals "Your refund": reply is "Your Refund" (first difference at char 6)' });
  });
  it('treats a longer reply as different', () => {
    expect(check({ type: 'equals', value: 'ab' }, makeCtx({ reply: 'abc' })).score).toBe(0);
  });
});

describe('contains / notContains', () => {
  it('contains is case-sensitive by default', () => {
    expect(check({ type: 'contains', value: 'Refund' }, ctx)).toEqual({ score: 1, message: 'contains "Refund": found at char 6' });
    expect(check({ type: 'contains', value: 'refund' }, ctx)).toEqual({
      score: 0,
      message: 'contains "refund": not found in reply (42 chars)',
    });
  });
  it('contains ignores case when asked', () => {
    expect(check({ type: 'contains', value: 'REFUND', caseSensitive: false }, ctx)).toEqual({
      score: 1,
      message: 'contains "REFUND" (case-insensitive): found at char 6',
    });
  });
  it('notContains fails when the text is there', () => {
    expect(check({ type: 'notContains', value: 'A1049' }, ctx)).toEqual({ score: 0, message: 'notContains "A1049": found at char 23' });
  });
  it('notContains passes when absent, case-insensitive too', () => {
    expect(check({ type: 'notContains', value: 'denied' }, ctx)).toEqual({
      score: 1,
      message: 'notContains "denied": not found in reply (42 chars)',
    });
    expect(check({ type: 'notContains', value: 'your refund', caseSensitive: false }, ctx).score).toBe(0);
    expect(check({ type: 'notContains', value: 'your refund' }, ctx).score).toBe(1);
  });
});

describe('containsAll / containsAny', () => {
  it('containsAll passes when every value is present', () => {
    expect(check({ type: 'containsAll', values: ['Refund', 'A1049'] }, ctx)).toEqual({
      score: 1,
      message: 'containsAll ["Refund", "A1049"]: 2/2 found',
    });
  });
  it('containsAll scores the fraction found and names the missing', () => {
    expect(check({ type: 'containsAll', values: ['Refund', 'denied', 'A1049', 'sorry'] }, ctx)).toEqual({
      score: 0.5,
      message: 'containsAll ["Refund", "denied", "A1049", "sorry"]: missing ["denied", "sorry"] (2/4 found)',
    });
  });
  it('containsAll honours caseSensitive: false', () => {
    expect(check({ type: 'containsAll', values: ['refund', 'ORDER'], caseSensitive: false }, ctx).score).toBe(1);
    expect(check({ type: 'containsAll', values: ['refund', 'ORDER'] }, ctx).score).toBe(0);
  });
  it('containsAny passes on one hit and fails on none', () => {
    expect(check({ type: 'containsAny', values: ['denied', 'A1049'] }, ctx)).toEqual({
      score: 1,
      message: 'containsAny ["denied", "A1049"]: found ["A1049"]',
    });
    expect(check({ type: 'containsAny', values: ['denied', 'sorry'] }, ctx)).toEqual({
      score: 0,
      message: 'containsAny ["denied", "sorry"]: none found in reply (42 chars)',
    });
  });
});

describe('startsWith / endsWith', () => {
  it('startsWith shows how the reply starts', () => {
    expect(check({ type: 'startsWith', value: 'Your' }, ctx)).toEqual({ score: 1, message: 'startsWith "Your": reply starts with "Your"' });
    expect(check({ type: 'startsWith', value: 'Hello' }, ctx)).toEqual({
      score: 0,
      message: 'startsWith "Hello": reply starts with "Your "',
    });
  });
  it('endsWith shows how the reply ends', () => {
    expect(check({ type: 'endsWith', value: 'way.' }, ctx)).toEqual({ score: 1, message: 'endsWith "way.": reply ends with "way."' });
    expect(check({ type: 'endsWith', value: 'Thanks!' }, ctx)).toEqual({ score: 0, message: 'endsWith "Thanks!": reply ends with "ts way."' });
  });
});

describe('regex', () => {
  it('passes on a match and shows it', () => {
    expect(check({ type: 'regex', pattern: 'A\\d{4}' }, ctx)).toEqual({ score: 1, message: 'regex /A\\d{4}/: matched "A1049" at char 23' });
  });
  it('fails without a match', () => {
    expect(check({ type: 'regex', pattern: '^refund', flags: 'm' }, ctx)).toEqual({
      score: 0,
      message: 'regex /^refund/m: no match in reply (42 chars)',
    });
  });
  it('uses the flags', () => {
    expect(check({ type: 'regex', pattern: '^your refund', flags: 'i' }, ctx).score).toBe(1);
  });
  it('gives the same answer on every call even with the g flag', () => {
    const spec = { type: 'regex', pattern: 'A1049', flags: 'g' };
    expect([check(spec, ctx).score, check(spec, ctx).score]).toEqual([1, 1]);
  });
  it('rejects an invalid pattern at load time', () => {
    const errors = loadErrors({ type: 'regex', pattern: '(unclosed' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^invalid regex \/\(unclosed\/: .*Unterminated group/);
  });
  it('rejects invalid flags at load time', () => {
    expect(loadErrors({ type: 'regex', pattern: 'a', flags: 'q' })[0]).toMatch(/^invalid regex \/a\/q: .*flags/i);
  });
});

describe('lengthBetween', () => {
  it('passes inside the range and fails outside it', () => {
    expect(check({ type: 'lengthBetween', min: 10, max: 42 }, ctx)).toEqual({ score: 1, message: 'lengthBetween 10..42: reply has 42 chars' });
    expect(check({ type: 'lengthBetween', min: 43 }, ctx)).toEqual({ score: 0, message: 'lengthBetween at least 43: reply has 42 chars' });
    expect(check({ type: 'lengthBetween', max: 41 }, ctx)).toEqual({ score: 0, message: 'lengthBetween at most 41: reply has 42 chars' });
  });
  it('counts characters, not UTF-16 units', () => {
    expect(check({ type: 'lengthBetween', max: 3 }, makeCtx({ reply: '👍👍👍' }))).toEqual({
      score: 1,
      message: 'lengthBetween at most 3: reply has 3 chars',
    });
  });
  it('needs at least one bound, and min <= max', () => {
    expect(loadErrors({ type: 'lengthBetween' })).toEqual(['lengthBetween needs at least one of min or max']);
    expect(loadErrors({ type: 'lengthBetween', min: 5, max: 2 })).toEqual(['lengthBetween min 5 is greater than max 2']);
  });
});

describe('positions', () => {
  it('are counted in characters, like lengths', () => {
    const emoji = makeCtx({ reply: '👍 ok' });
    expect(check({ type: 'contains', value: 'ok' }, emoji).message).toBe('contains "ok": found at char 3');
    expect(check({ type: 'regex', pattern: 'o.' }, emoji).message).toBe('regex /o./: matched "ok" at char 3');
  });
});
