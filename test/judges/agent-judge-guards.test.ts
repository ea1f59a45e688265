/**
 * Guards are the user's: with none, the judge adds no limit of its own and warns exactly once per
 * judge instance (however many judgments), naming the option to add; `guardProfile()` says what is
 * declared and active. With guards, `maxSteps`, `maxTokens`, `timeoutMs` and finish reasons stop
 * a judge that never submits, and that is a failure (a gate error through the judge service).
 */
import { describe, expect, it, vi } from 'vitest';
import { policyLookup } from '../../evals/tools/policy-lookup.js';
import { agentJudge } from '../../src/judges/agent-judge.js';
import { JudgeProtocolError } from '../../src/core/errors.js';
import { call, fakeJudge, judgeRequest, judgeService, openaiSpec, rejection, rubric, submit, TEST_ENV, trialContext, turn, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();

/** A judge model that keeps looking the policy up and never submits. */
const neverSubmits = () => turn([call('policy_lookup', { topic: 'refunds' })], { input: 100, output: 10 });

describe('no guards', () => {
  it('warns exactly once per judge instance across many judgments; guardProfile says configured: false', async () => {
    const fake = await fakes.openai(() => turn([submit(0.5)]));
    const judge = fakeJudge(fake);
    const seen: string[] = [];
    judge.onEvent((e) => seen.push(e.message));

    for (let i = 0; i < 3; i++) await judge.judge(judgeRequest());
    await Promise.all([1, 2, 3, 4].map(() => judge.judge(judgeRequest())));

    expect(fake.count).toBe(7);
    expect(judge.events).toHaveLength(1);
    expect(judge.events[0]).toMatchObject({ type: 'warning' });
    expect(judge.events[0]!.message).toMatch(/openai:gpt-4\.1-mini runs with no guards/);
    expect(judge.events[0]!.message).toMatch(/guards: \{ maxSteps, maxTokens, timeoutMs \}/);
    expect(seen).toEqual([judge.events[0]!.message]);
    expect(judge.guardProfile()).toEqual({ configured: false, active: [] });

    // A listener added later still hears it (once).
    const late: string[] = [];
    judge.onEvent((e) => late.push(e.message));
    expect(late).toHaveLength(1);

    // Another instance warns for itself.
    const other = fakeJudge(fake);
    await other.judge(judgeRequest());
    expect(other.events).toHaveLength(1);
    expect(judge.events).toHaveLength(1);
  });

  it('through the judge service the warning reaches the run once, however many assertions use the judge', async () => {
    const fake = await fakes.openai(() => turn([submit(0.9)]));
    const warnings: string[] = [];
    const service = judgeService(fakeJudge(fake), warnings);
    for (let i = 0; i < 4; i++) expect((await service.grade(rubric(`criterion ${i}`), trialContext())).result.status).toBe('passed');
    expect(warnings.filter((w) => w.includes('no guards'))).toHaveLength(1);
  });

  it('adds no step limit of its own: a judge may look things up many times before submitting', async () => {
    let n = 0;
    const fake = await fakes.openai(() => (++n <= 15 ? neverSubmits() : turn([submit(0.75)])));
    const score = await fakeJudge(fake, { tools: [policyLookup] }).judge(judgeRequest());
    expect(score.score).toBe(0.75);
    expect(score.run!.steps).toHaveLength(16);
  });

  it('guards with nothing in them count as none', () => {
    const judge = agentJudge({ model: 'openai:gpt-4.1-mini', guards: { failOnFinishReasons: [] }, options: { env: TEST_ENV } });
    expect(judge.guardProfile()).toEqual({ configured: false, active: [] });
  });
});

describe('with guards', () => {
  it('guardProfile lists the active guards and no warning is raised', async () => {
    const fake = await fakes.openai(() => turn([submit(0.5)]));
    const judge = fakeJudge(fake, { guards: { maxSteps: 4, timeoutMs: 5_000, failOnFinishReasons: ['length'] } });
    // A factory judge learns its guards from the factory, which runs only when it judges.
    await judge.judge(judgeRequest());
    expect(judge.guardProfile()).toEqual({ configured: true, active: ['maxSteps', 'timeoutMs', 'failOnFinishReasons'] });
    expect(judge.events).toEqual([]);
  });

  it('guardProfile describes the latest judgment when the factory changes its guards', async () => {
    const fake = await fakes.openai(() => turn([submit(0.5)]));
    let i = 0;
    const judge = fakeJudge(fake, () => (i++ % 2 === 0 ? { guards: { maxTokens: 10_000 } } : {}));
    await judge.judge(judgeRequest()); // factory call 1 (building the judge calls none): maxTokens
    expect(judge.guardProfile()).toEqual({ configured: true, active: ['maxTokens'] });
    await judge.judge(judgeRequest()); // call 2: no guards
    expect(judge.guardProfile()).toEqual({ configured: false, active: [] });
  });

  it('maxSteps stops a judge that never submits, and that is a failure', async () => {
    const fake = await fakes.openai(neverSubmits);
    let executed = 0;
    const judge = fakeJudge(fake, {
      tools: [{ ...policyLookup, execute: (a: { topic: string }, c: Parameters<typeof policyLookup.execute>[1]) => (executed++, policyLookup.execute(a, c)) }],
      guards: { maxSteps: 3 },
    });
    const err = await rejection(judge.judge(judgeRequest()));
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message).toBe('judge stopped by maxSteps (3) before calling submit_judgment');
    expect(fake.count).toBe(3);
    expect(executed).toBe(3);
    expect(err.spent.usage).toMatchObject({ calls: 3, inputTokens: 300, outputTokens: 30 });
    expect(err.spent.run.steps).toHaveLength(3);
  });

  it('through the judge service the maxSteps stop is a gate error carrying the judge usage', async () => {
    const fake = await fakes.openai(neverSubmits);
    const { result, usage } = await judgeService(fakeJudge(fake, { tools: [policyLookup], guards: { maxSteps: 2 } })).grade(rubric('asks for verification', { severity: 'soft' }), trialContext());
    expect(result).toMatchObject({ status: 'error', severity: 'gate', score: 0 });
    expect(result.message).toContain('JudgeProtocolError: judge stopped by maxSteps (2) before calling submit_judgment');
    expect(usage).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 20 });
  });

  it('maxTokens stops the judge once its tokens reach the limit', async () => {
    const fake = await fakes.openai(neverSubmits);
    const err = await rejection(fakeJudge(fake, { tools: [policyLookup], guards: { maxTokens: 250 } }).judge(judgeRequest()));
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message).toBe('judge stopped by maxTokens (250) before calling submit_judgment');
    expect(fake.count).toBe(3); // 110, 220, 330 tokens: the third call crosses the limit
  });

  it('timeoutMs stops a judge whose model is too slow, and that is a failure', async () => {
    const fake = await fakes.openai([{ delayMs: 5_000, then: turn([submit(1)]) }]);
    const err = await rejection(fakeJudge(fake, { guards: { timeoutMs: 150 }, model: { ...openaiSpec(fake), maxRetries: 0 } }).judge(judgeRequest()));
    // The judge gave up before the server sent its delayed answer: the timeout, not the reply, ended it.
    expect(fake.count).toBe(1);
    expect(fake.requests[0]!.answeredAt).toBeUndefined();
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message).toBe('judge stopped by timeoutMs (150) before calling submit_judgment');
  });

  it('a timeout after some steps keeps the usage already spent as judge usage', async () => {
    // The first step answers at once; the second never answers within the test. The clock is faked
    // (setTimeout, Date) and moves past the 2 s limit only once the second request has arrived: the
    // first step lands inside the limit however slow the machine, and the test waits no 2 s.
    const fake = await fakes.openai([neverSubmits(), { delayMs: 60_000, then: turn([submit(1)]) }]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const judge = fakeJudge(fake, { tools: [policyLookup], guards: { timeoutMs: 2_000 }, model: { ...openaiSpec(fake), maxRetries: 0 } });
      const grading = judgeService(judge).grade(rubric('asks for verification', { severity: 'soft' }), trialContext());
      while (fake.count < 2) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(2_000);
      const { result, usage } = await grading;
      expect(result).toMatchObject({ status: 'error', severity: 'gate' });
      expect(result.message).toContain('JudgeProtocolError: judge stopped by timeoutMs (2000) before calling submit_judgment');
      expect(usage).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: 10 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('failOnFinishReasons ends the judgment as a failure on that finish reason', async () => {
    const fake = await fakes.openai([{ text: 'The reply is corr', finishReason: 'length' }]);
    const err = await rejection(fakeJudge(fake, { guards: { failOnFinishReasons: ['length'] } }).judge(judgeRequest()));
    expect(err).toBeInstanceOf(JudgeProtocolError);
    expect(err.message).toBe('judge stopped: finish reason "length"');
  });
});
