import { describe, it, expect } from 'vitest';
import { call, check, loadErrors, makeCtx } from './helpers.js';
import { recordedTrajectory } from '../../src/assertions/trajectory.js';

const lookupA = call('orders_lookup', { id: 'A1', filter: { status: 'open', limit: 5 }, tags: ['x', 'y'] });
const lookupB = call('orders_lookup', { id: 'B2' });
const policy = call('policy_lookup', { topic: 'refunds' });
const refund = call('refunds_issue', { order: 'A1', amount: 100 });

/** Calls spread over two steps, to check that steps are read in order. */
const ctx = makeCtx({ steps: [{ toolCalls: [lookupA, policy] }, { text: 'thinking' }, { toolCalls: [lookupB, refund] }] });
const none = makeCtx({ reply: 'hi' });
/** The same run under `trace: full`: a miss names the calls' args in clear. */
const full = { ...ctx, tracePolicy: 'full' as const };

describe('calledTool', () => {
  it('defaults to at least once', () => {
    expect(check({ type: 'calledTool', tool: 'orders_lookup' }, ctx)).toEqual({
      score: 1,
      message: 'calledTool orders_lookup: called 2 times (expected at least 1)',
    });
    expect(check({ type: 'calledTool', tool: 'orders_lookup' }, none)).toEqual({
      score: 0,
      message: 'calledTool orders_lookup: called 0 times (expected at least 1)',
    });
  });
  it('checks exact and bounded counts', () => {
    expect(check({ type: 'calledTool', tool: 'orders_lookup', times: 1 }, full)).toEqual({
      score: 0,
      message: 'calledTool orders_lookup: called 2 times (expected exactly 1); its calls: {"id":"A1","filter":{"status":"open","limit":5},"tags":["x",…, {"id":"B2"}',
    });
    expect(check({ type: 'calledTool', tool: 'policy_lookup', times: 1 }, ctx).score).toBe(1);
    expect(check({ type: 'calledTool', tool: 'orders_lookup', atMost: 1 }, full)).toEqual({
      score: 0,
      message: 'calledTool orders_lookup: called 2 times (expected at most 1); its calls: {"id":"A1","filter":{"status":"open","limit":5},"tags":["x",…, {"id":"B2"}',
    });
    expect(check({ type: 'calledTool', tool: 'orders_lookup', atLeast: 1, atMost: 3 }, ctx)).toEqual({
      score: 1,
      message: 'calledTool orders_lookup: called 2 times (expected between 1 and 3)',
    });
    expect(check({ type: 'calledTool', tool: 'orders_lookup', atLeast: 3 }, ctx).score).toBe(0);
    // atMost alone allows zero calls.
    expect(check({ type: 'calledTool', tool: 'refunds_issue', atMost: 0 }, none).score).toBe(1);
  });
  it('matches args as a recursive subset', () => {
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: { id: 'A1' } }, ctx)).toEqual({
      score: 1,
      message: 'calledTool orders_lookup with {"id":"A1"}: called 1 time (expected at least 1); 1 other call with different args',
    });
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: { filter: { status: 'open' } } }, ctx).score).toBe(1);
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: { filter: { status: 'closed' } } }, ctx).score).toBe(0);
    // Arrays compare whole, not as subsets.
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: { tags: ['x'] } }, ctx).score).toBe(0);
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: { tags: ['x', 'y'] } }, ctx).score).toBe(1);
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: { id: 'Z9' } }, full)).toEqual({
      score: 0,
      message:
        'calledTool orders_lookup with {"id":"Z9"}: called 0 times (expected at least 1); 2 other calls with different args: {"id":"A1","filter":{"status":"open","limit":5},"tags":["x",…, {"id":"B2"}',
    });
  });
  it('a miss names the calls the agent made instead, with their args (in clear under trace: full), at most five', () => {
    expect(check({ type: 'calledTool', tool: 'escalate' }, full)).toEqual({
      score: 0,
      message:
        'calledTool escalate: called 0 times (expected at least 1); calls made: orders_lookup {"id":"A1","filter":{"status":"open","limit":5},"tags":["x",…, policy_lookup {"topic":"refunds"}, orders_lookup {"id":"B2"}, refunds_issue {"order":"A1","amount":100}',
    });
    const many = { ...makeCtx({ steps: [{ toolCalls: [1, 2, 3, 4, 5, 6, 7].map((n) => call('search', { page: n })) }, { toolCalls: [{ name: 'ping' }] }] }), tracePolicy: 'full' as const };
    expect(check({ type: 'calledTool', tool: 'search', args: { page: 9 } }, many).message).toBe(
      'calledTool search with {"page":9}: called 0 times (expected at least 1); 7 other calls with different args: {"page":1}, {"page":2}, {"page":3}, {"page":4}, {"page":5}, … 2 more',
    );
    expect(check({ type: 'calledTool', tool: 'lookup' }, many).message).toMatch(/; calls made: search \{"page":1\}, .*, … 3 more$/);
    expect(check({ type: 'calledTool', tool: 'ping', times: 2 }, many).message).toBe('calledTool ping: called 1 time (expected exactly 2); its call: (no args)');
  });
  it('under trace: safe, and with no policy given, a miss names the same calls with their args as their digest shape, no value', () => {
    const safe = { ...ctx, tracePolicy: 'safe' as const };
    const made =
      'calledTool escalate: called 0 times (expected at least 1); calls made: orders_lookup {"id":"<string:2>","filter":{"status":"<string:4>","limit":"…, policy_lookup {"topic":"<string:7>"}, orders_lookup {"id":"<string:2>"}, refunds_issue {"order":"<string:2>","amount":"<number>"}';
    for (const c of [safe, ctx]) {
      expect(check({ type: 'calledTool', tool: 'escalate' }, c)).toEqual({ score: 0, message: made });
      expect(check({ type: 'calledTool', tool: 'orders_lookup', times: 1 }, c).message).toBe(
        'calledTool orders_lookup: called 2 times (expected exactly 1); its calls: {"id":"<string:2>","filter":{"status":"<string:4>","limit":"…, {"id":"<string:2>"}',
      );
      const other = check({ type: 'calledTool', tool: 'orders_lookup', args: { id: 'Z9' } }, c).message;
      expect(other).toBe(
        'calledTool orders_lookup with {"id":"Z9"}: called 0 times (expected at least 1); 2 other calls with different args: {"id":"<string:2>","filter":{"status":"<string:4>","limit":"…, {"id":"<string:2>"}',
      );
      // No value the agent passed: only the filter's own (the author's) "Z9".
      for (const value of ['"A1"', '"B2"', '"open"', '"refunds"', '100', '"x"']) expect(`${made} ${other}`).not.toContain(value);
    }
    // Args recorded as digests already (a re-check of digested results) show the same shape, not the digest.
    const digested = makeCtx({ calls: [call('search', { hash: `sha256:${'0'.repeat(64)}`, bytes: 9, preview: { q: '<string:6>' } })] });
    expect(check({ type: 'calledTool', tool: 'lookup' }, digested).message).toBe('calledTool lookup: called 0 times (expected at least 1); calls made: search {"q":"<string:6>"}');
  });
  it('rejects times together with bounds, and inverted bounds', () => {
    expect(loadErrors({ type: 'calledTool', tool: 'a', times: 1, atLeast: 1 })).toEqual(['calledTool takes either times or atLeast/atMost, not both']);
    expect(loadErrors({ type: 'calledTool', tool: 'a', atLeast: 3, atMost: 1 })).toEqual(['calledTool atLeast 3 is greater than atMost 1']);
  });
  it('refuses args with a __proto__ key, which would be dropped and match any call; the args object is matched as given', () => {
    const dropped = 'calledTool: "__proto__" cannot be an argument name (at __proto__): it would be dropped, and the filter would match any call';
    expect(loadErrors({ type: 'calledTool', tool: 'orders_lookup', args: JSON.parse('{"__proto__": {"id": "Z9"}}') as unknown })).toEqual([dropped]);
    expect(loadErrors({ type: 'calledTool', tool: 'orders_lookup', args: { ['__proto__']: { id: 'Z9' } } })).toEqual([dropped]);
    expect(loadErrors({ type: 'calledTool', tool: 'orders_lookup', args: { __proto__: { id: 'Z9' } } })).toEqual([
      'calledTool: args are matched as JSON, and the object is not a plain one (a literal __proto__ key sets its prototype)',
    ]);
    expect(loadErrors({ type: 'notCalledTool', tool: 'orders_lookup', args: { filter: [{ __proto__: { status: 'open' } }] } })).toEqual([
      'notCalledTool: args are matched as JSON, and the object at filter[0] is not a plain one (a literal __proto__ key sets its prototype)',
    ]);
    expect(loadErrors({ type: 'calledTool', tool: 'orders_lookup', args: 'id=A1' })).toEqual(['calledTool: args must be an object of argument values']);
    // A value spelling __proto__ is an ordinary string; a null-prototype object is plain.
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: { id: '__proto__' } }, ctx).score).toBe(0);
    expect(check({ type: 'calledTool', tool: 'orders_lookup', args: Object.assign(Object.create(null) as object, { id: 'A1' }) }, ctx).score).toBe(1);
  });
});

describe('notCalledTool', () => {
  it('fails when the tool was called, passes when not', () => {
    expect(check({ type: 'notCalledTool', tool: 'refunds_issue' }, ctx)).toEqual({ score: 0, message: 'notCalledTool refunds_issue: called 1 time' });
    expect(check({ type: 'notCalledTool', tool: 'refunds_issue' }, none)).toEqual({ score: 1, message: 'notCalledTool refunds_issue: called 0 times' });
  });
  it('with args, only matching calls count', () => {
    expect(check({ type: 'notCalledTool', tool: 'refunds_issue', args: { amount: 500 } }, ctx)).toEqual({
      score: 1,
      message: 'notCalledTool refunds_issue with {"amount":500}: called 0 times; 1 other call with different args',
    });
    expect(check({ type: 'notCalledTool', tool: 'refunds_issue', args: { amount: 100 } }, ctx).score).toBe(0);
  });
});

describe('toolOrder', () => {
  it('passes on an ordered, non-contiguous subsequence', () => {
    expect(check({ type: 'toolOrder', tools: ['orders_lookup', 'refunds_issue'] }, ctx)).toEqual({
      score: 1,
      message: 'toolOrder [orders_lookup, refunds_issue]: actual sequence [orders_lookup, policy_lookup, orders_lookup, refunds_issue]',
    });
  });
  it('allows other calls between the listed tools', () => {
    expect(check({ type: 'toolOrder', tools: ['policy_lookup', 'refunds_issue'] }, ctx).score).toBe(1);
  });
  it('fails when the order is wrong or a tool is missing', () => {
    expect(check({ type: 'toolOrder', tools: ['refunds_issue', 'policy_lookup'] }, ctx)).toEqual({
      score: 0,
      message: 'toolOrder [refunds_issue, policy_lookup]: actual sequence [orders_lookup, policy_lookup, orders_lookup, refunds_issue]',
    });
    expect(check({ type: 'toolOrder', tools: ['orders_lookup', 'orders_lookup', 'orders_lookup'] }, ctx).score).toBe(0);
    expect(check({ type: 'toolOrder', tools: ['a'] }, none).message).toBe('toolOrder [a]: actual sequence []');
  });
});

describe('toolSequence', () => {
  it('passes only on the exact full sequence', () => {
    const exact = ['orders_lookup', 'policy_lookup', 'orders_lookup', 'refunds_issue'];
    expect(check({ type: 'toolSequence', tools: exact }, ctx).score).toBe(1);
    expect(check({ type: 'toolSequence', tools: exact.slice(0, 3) }, ctx)).toEqual({
      score: 0,
      message: 'toolSequence [orders_lookup, policy_lookup, orders_lookup]: actual sequence [orders_lookup, policy_lookup, orders_lookup, refunds_issue]',
    });
    expect(check({ type: 'toolSequence', tools: [...exact].reverse() }, ctx).score).toBe(0);
    expect(check({ type: 'toolSequence', tools: [] }, none).score).toBe(1);
  });
});

describe('usedNoTools / maxToolCalls', () => {
  it('usedNoTools', () => {
    expect(check({ type: 'usedNoTools' }, none)).toEqual({ score: 1, message: 'usedNoTools: 0 tool calls' });
    expect(check({ type: 'usedNoTools' }, makeCtx({ calls: [policy] }))).toEqual({ score: 0, message: 'usedNoTools: 1 tool call [policy_lookup]' });
  });
  it('maxToolCalls', () => {
    expect(check({ type: 'maxToolCalls', max: 4 }, ctx)).toEqual({ score: 1, message: 'maxToolCalls 4: 4 tool calls' });
    expect(check({ type: 'maxToolCalls', max: 3 }, ctx)).toEqual({ score: 0, message: 'maxToolCalls 3: 4 tool calls' });
    expect(loadErrors({ type: 'maxToolCalls', max: -1 })).toHaveLength(1);
  });
});

describe('noToolErrors', () => {
  it('passes without errored calls', () => {
    expect(check({ type: 'noToolErrors' }, ctx)).toEqual({ score: 1, message: 'noToolErrors: 0 of 4 tool calls errored' });
  });
  it('names the failing tools', () => {
    const failing = makeCtx({ calls: [call('a', {}, true), call('b', {}, false), call('c', undefined, true)] });
    expect(check({ type: 'noToolErrors' }, failing)).toEqual({ score: 0, message: 'noToolErrors: 2 of 3 tool calls errored [a, c]' });
  });
});

describe('a trial that recorded no trajectory', () => {
  const usage = { inputTokens: 10, outputTokens: 2 };

  it('is one whose run has no step list, or text steps only; a model call, a tool call or an empty list is a trajectory', () => {
    expect(recordedTrajectory({ reply: 'hi' })).toBe(false);
    expect(recordedTrajectory({ reply: 'hi', steps: [{ text: 'thinking' }] })).toBe(false);
    expect(recordedTrajectory({ reply: 'hi', steps: [] })).toBe(true);
    expect(recordedTrajectory({ reply: 'hi', steps: [{ usage }] })).toBe(true);
    expect(recordedTrajectory({ reply: 'hi', steps: [{ model: 'openai:gpt-4.1-mini', usageUnknown: true }] })).toBe(true);
    expect(recordedTrajectory({ reply: 'hi', steps: [{ toolCalls: [call('ping')] }] })).toBe(true);
  });

  it('fails every trajectory assertion naming the target, those that would pass on no calls included', () => {
    const untraced = { ...makeCtx({ reply: 'hi' }), target: { name: 'plain', recordedTrajectory: false } };
    const specs = [
      { type: 'calledTool', tool: 'orders_lookup' },
      { type: 'notCalledTool', tool: 'refunds_issue' },
      { type: 'toolOrder', tools: ['orders_lookup'] },
      { type: 'toolSequence', tools: [] },
      { type: 'usedNoTools' },
      { type: 'maxToolCalls', max: 3 },
      { type: 'noToolErrors' },
    ];
    for (const spec of specs) {
      const outcome = check(spec, untraced);
      expect(outcome.score, spec.type).toBe(0);
      expect(outcome.message).toMatch(new RegExp(`^${spec.type}\\b.*: target "plain" recorded no tool calls: use ctx.fetch, ctx.tool or an adapter`));
    }
  });

  it('a recorded trajectory without tool calls counts 0 calls as before', () => {
    const traced = { ...makeCtx({ steps: [{ usage }] }), target: { name: 'sdk-agent', recordedTrajectory: true } };
    expect(check({ type: 'calledTool', tool: 'orders_lookup' }, traced)).toEqual({ score: 0, message: 'calledTool orders_lookup: called 0 times (expected at least 1)' });
    expect(check({ type: 'notCalledTool', tool: 'refunds_issue' }, traced).score).toBe(1);
  });
});
