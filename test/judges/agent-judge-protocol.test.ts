/**
 * The submit_judgment protocol of the agent-loop judge, against the fake OpenAI server scripted
 * turn by turn: an evidence call then a submission yields the submitted verdict with the judge's
 * own 2-step run and usage; calls after the submission in one batch are skipped; a second
 * submission, a plain-text answer and invalid submissions are protocol failures, and through the
 * runner's judge service any protocol failure is a gate error even for a `.soft()` assertion.
 */
import { describe, expect, it } from 'vitest';
import { POLICIES } from '../../evals/agents/store.js';
import { policyLookup } from '../../evals/tools/policy-lookup.js';
import { SKIPPED_AFTER_SUBMIT } from '../../src/judges/agent-judge-protocol.js';
import { JudgeProtocolError } from '../../src/core/errors.js';
import { tool } from '../../src/targets/tool.js';
import { call, fakeJudge, judgeRequest, judgeService, rejection, rubric, submit, toolMessages, trialContext, turn, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();

/** policy_lookup with a counter on its implementation. */
function countedPolicyLookup() {
  const counter = { calls: 0 };
  const t = tool({
    name: policyLookup.name,
    description: policyLookup.description,
    parameters: policyLookup.parameters,
    execute: (args, ctx) => {
      counter.calls++;
      return policyLookup.execute(args, ctx);
    },
  });
  return { tool: t, counter };
}

// gpt-4.1-mini: $0.40 / $1.60 per 1M input / output tokens.
const cost = (input: number, output: number) => (input * 0.4 + output * 1.6) / 1e6;

describe('an evidence call, then submit_judgment', () => {
  it('yields the submitted score, reason and evidence, and a 2-step judge run whose usage is judge usage', async () => {
    const fake = await fakes.openai([
      turn([call('policy_lookup', { topic: 'refunds' }, 'call_policy')], { input: 700, output: 20 }),
      turn([submit(0.9, 'The reply asks for the order email before refunding, as policy:refunds requires.', ['policy_lookup(refunds) -> policy:refunds', 'reply asks to verify the email'])], {
        input: 900,
        output: 40,
      }),
    ]);
    const { tool: lookup, counter } = countedPolicyLookup();
    const judge = fakeJudge(fake, { tools: [lookup], guards: { maxSteps: 4 } });

    const score = await judge.judge(judgeRequest());

    expect(score).toMatchObject({
      score: 0.9,
      reason: 'The reply asks for the order email before refunding, as policy:refunds requires.',
      evidence: ['policy_lookup(refunds) -> policy:refunds', 'reply asks to verify the email'],
    });
    expect(counter.calls).toBe(1);
    expect(score.usage).toEqual({ calls: 2, inputTokens: 1600, outputTokens: 60, cachedInputTokens: 0, reasoningTokens: 0, costUsd: expect.closeTo(cost(1600, 60), 12) });

    const run = score.run!;
    expect(run).toMatchObject({ model: 'openai:gpt-4.1-mini', stopReason: 'submitted' });
    expect(run.steps).toHaveLength(2);
    expect(run.steps!.map((s) => s.toolCalls!.map((c) => c.name))).toEqual([['policy_lookup'], ['submit_judgment']]);
    expect(run.steps!.map((s) => s.usage)).toEqual([
      { inputTokens: 700, outputTokens: 20, cachedInputTokens: 0, reasoningTokens: 0 },
      { inputTokens: 900, outputTokens: 40, cachedInputTokens: 0, reasoningTokens: 0 },
    ]);
    // The judge's own run is projected under the request's trace policy (`safe`): tool data as digests.
    const recorded = run.steps![0]!.toolCalls![0]!;
    expect(recorded).toMatchObject({ name: 'policy_lookup', isError: false });
    expect(recorded.result).toMatchObject({ hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), bytes: expect.any(Number), preview: { source: '<string:14>' } });
    expect(JSON.stringify(run)).not.toContain(POLICIES.refunds);

    // On the wire: two requests; the second carries the evidence tool's result back to the model.
    expect(fake.count).toBe(2);
    const [first, second] = fake.bodies;
    expect(first.tools.map((t: any) => t.function.name)).toEqual(['policy_lookup', 'submit_judgment']);
    expect(first.tool_choice).toBe('auto');
    const results = toolMessages(second);
    expect(results).toHaveLength(1);
    expect(results[0]!.tool_call_id).toBe('call_policy');
    expect(JSON.parse(results[0]!.content)).toEqual({ source: 'policy:refunds', topic: 'refunds', text: POLICIES.refunds });
  });

  it('under the `full` trace policy the judge run keeps its tool data in clear', async () => {
    const fake = await fakes.openai([turn([call('policy_lookup', { topic: 'shipping' })]), turn([submit(1)])]);
    const judge = fakeJudge(fake, { tools: [policyLookup], guards: { maxSteps: 3 } });
    const score = await judge.judge(judgeRequest({ tracePolicy: 'full' }));
    expect(score.run!.steps![0]!.toolCalls![0]).toMatchObject({ args: { topic: 'shipping' }, result: { source: 'policy:shipping', text: POLICIES.shipping } });
  });

  it('through the judge service: the assertion shows the evidence, judge usage, steps and tool calls', async () => {
    const fake = await fakes.openai([
      turn([call('policy_lookup', { topic: 'refunds' })], { input: 300, output: 10 }),
      turn([submit(0.8, 'verified first', ['policy:refunds'])], { input: 400, output: 30 }),
    ]);
    const judge = fakeJudge(fake, { tools: [policyLookup], guards: { maxSteps: 4 } });
    const { result, usage } = await judgeService(judge).grade(rubric('asks for verification'), trialContext());
    expect(result).toMatchObject({
      kind: 'judge',
      status: 'passed',
      severity: 'soft',
      score: 0.8,
      reason: 'verified first',
      evidence: ['policy:refunds'],
      judge: { provider: 'openai', model: 'gpt-4.1-mini', steps: 2, toolCalls: 2, usage: { calls: 2, inputTokens: 700, outputTokens: 40 } },
    });
    expect(usage).toEqual(result.judge!.usage);
  });
});

describe('calls after submit_judgment in the same batch', () => {
  it('[submit_judgment, policy_lookup]: the judgment stands, policy_lookup never runs and is recorded as skipped', async () => {
    const fake = await fakes.openai([turn([submit(0.7, 'policy was followed', ['asked for email']), call('policy_lookup', { topic: 'refunds' })])]);
    const { tool: lookup, counter } = countedPolicyLookup();
    const judge = fakeJudge(fake, { tools: [lookup], guards: { maxSteps: 4 } });

    const score = await judge.judge(judgeRequest({ tracePolicy: 'full' }));

    expect(score).toMatchObject({ score: 0.7, reason: 'policy was followed', evidence: ['asked for email'] });
    expect(counter.calls).toBe(0);
    expect(fake.count).toBe(1);
    const calls = score.run!.steps![0]!.toolCalls!;
    expect(calls.map((c) => c.name)).toEqual(['submit_judgment', 'policy_lookup']);
    expect(calls[1]).toMatchObject({ isError: false, result: { skipped: true, reason: 'submit_judgment already called; the judge run has ended.' } });
    expect(calls[1]!.result).toEqual(SKIPPED_AFTER_SUBMIT);
  });

  it('an evidence call ordered before the submission in the same batch does run', async () => {
    const fake = await fakes.openai([turn([call('policy_lookup', { topic: 'refunds' }), submit(0.6)])]);
    const { tool: lookup, counter } = countedPolicyLookup();
    const score = await fakeJudge(fake, { tools: [lookup], guards: { maxSteps: 4 } }).judge(judgeRequest());
    expect(score.score).toBe(0.6);
    expect(counter.calls).toBe(1);
  });
});

describe('protocol failures', () => {
  it('a second submit_judgment in the same batch is a JudgeProtocolError (with the usage spent)', async () => {
    const fake = await fakes.openai([turn([submit(0.9), submit(0.2)], { input: 50, output: 8 })]);
    const err = await rejection(fakeJudge(fake, { guards: { maxSteps: 3 } }).judge(judgeRequest()));
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message).toBe('submit_judgment was called a second time; a judgment is submitted exactly once');
    expect(err.spent.usage).toMatchObject({ calls: 1, inputTokens: 50, outputTokens: 8 });
    expect(err.spent.run).toMatchObject({ stopReason: 'protocol_error' });
  });

  it('through the judge service a second submission fails the assertion as a gate, although it was soft', async () => {
    const fake = await fakes.openai([turn([submit(0.9), submit(0.2)], { input: 50, output: 8 })]);
    const { result, usage } = await judgeService(fakeJudge(fake, { guards: { maxSteps: 3 } })).grade(rubric('asks for verification', { severity: 'soft' }), trialContext());
    expect(result).toMatchObject({ status: 'error', severity: 'gate', score: 0 });
    expect(result.message).toMatch(/JudgeProtocolError: submit_judgment was called a second time/);
    // The tokens the failed judge spent are still counted as judge usage.
    expect(usage).toMatchObject({ calls: 1, inputTokens: 50, outputTokens: 8 });
    expect(result.judge?.usage).toEqual(usage);
  });

  it.each([
    ['a plain-text answer with no submission', { text: 'The reply is fine, I would give it 0.9.' }, 'the judge answered in plain text without calling submit_judgment'],
    ['a score of 1.2', turn([submit(1.2, 'great')]), 'submit_judgment: score must be a finite number from 0 to 1'],
    ['a negative score', turn([submit(-0.1, 'bad')]), 'submit_judgment: score must be a finite number from 0 to 1'],
    ['a score given as text', turn([call('submit_judgment', { score: '0.9', reason: 'ok', evidence: [] })]), 'submit_judgment: score must be a finite number from 0 to 1'],
    ['a missing score', turn([call('submit_judgment', { reason: 'ok', evidence: [] })]), 'submit_judgment: score must be a finite number from 0 to 1'],
    ['an empty reason', turn([submit(0.5, '')]), 'submit_judgment: reason must be a non-empty string'],
    ['a blank reason', turn([submit(0.5, '   ')]), 'submit_judgment: reason must be a non-empty string'],
    ['evidence that is a string', turn([call('submit_judgment', { score: 0.5, reason: 'ok', evidence: 'policy:refunds' })]), 'submit_judgment: evidence must be a list of short strings'],
    ['evidence holding a number', turn([call('submit_judgment', { score: 0.5, reason: 'ok', evidence: ['policy:refunds', 42] })]), 'submit_judgment: evidence must be a list of short strings'],
    ['evidence holding an overlong string', turn([call('submit_judgment', { score: 0.5, reason: 'ok', evidence: ['x'.repeat(501)] })]), 'submit_judgment: evidence must be a list of short strings'],
    ['arguments that are not JSON', turn([call('submit_judgment', '{"score": 0.5,')]), 'submit_judgment: arguments:'],
    ['an unknown field', turn([call('submit_judgment', { score: 0.5, reason: 'ok', evidence: [], verdict: 'pass' })]), 'submit_judgment: arguments:'],
  ])('%s is a protocol failure with a clear message', async (_name, reply, message) => {
    const fake = await fakes.openai([reply]);
    const err = await rejection(fakeJudge(fake, { guards: { maxSteps: 3 } }).judge(judgeRequest()));
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message.startsWith(message), err.message).toBe(true);
    expect(fake.count).toBe(1);
  });

  it('evidence may be left out: it defaults to an empty list', async () => {
    const fake = await fakes.openai([turn([call('submit_judgment', { score: 0.4, reason: 'no evidence given' })])]);
    const score = await fakeJudge(fake, { guards: { maxSteps: 2 } }).judge(judgeRequest());
    expect(score).toMatchObject({ score: 0.4, reason: 'no evidence given', evidence: [] });
  });

  it('a plain-text answer after evidence calls is still a failure, and through the service a gate error', async () => {
    const fake = await fakes.openai([turn([call('policy_lookup', { topic: 'refunds' })]), { text: 'Score: 1.0 — looks right.' }]);
    const judge = fakeJudge(fake, { tools: [policyLookup], guards: { maxSteps: 5 } });
    const { result } = await judgeService(judge).grade(rubric('asks for verification', { severity: 'soft' }), trialContext());
    expect(result).toMatchObject({ status: 'error', severity: 'gate' });
    expect(result.message).toContain('JudgeProtocolError: the judge answered in plain text without calling submit_judgment');
    expect(result.judge?.usage.calls).toBe(2);
  });

  it('an unknown tool is an error result the judge can recover from', async () => {
    const fake = await fakes.openai([turn([call('delete_orders', {})]), turn([submit(0.3)])]);
    const score = await fakeJudge(fake, { guards: { maxSteps: 3 } }).judge(judgeRequest({ tracePolicy: 'full' }));
    expect(score.score).toBe(0.3);
    expect(score.run!.steps![0]!.toolCalls![0]).toMatchObject({ name: 'delete_orders', isError: true });
    expect(toolMessages(fake.bodies[1])[0]!.content).toMatch(/unknown tool delete_orders/);
  });
});
