/**
 * What the results keep of an agent judge, and when its factory runs: the factory is called only
 * when the judge judges (never when it is built); the judge's own run (steps, tool calls) is kept on
 * the assertion under the trace policy — digests of tool data by default, in clear with `trace:
 * full` — also when the judgment fails the protocol. An agent judge an assertion names keeps
 * judging it under a provider:model `--judge`.
 */
import { describe, expect, it } from 'vitest';
import { policyLookup } from '../../evals/tools/policy-lookup.js';
import { agentJudge } from '../../src/judges/agent-judge.js';
import { AssertionResultSchema } from '../../src/core/results-schema.js';
import { judgeService as serviceWith } from '../judges/helpers.js';
import { call, judgeService, openaiSpec, rubric, submit, TEST_ENV, trialContext, turn, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();

/** One evidence call, then the submission. */
const lookThenSubmit = (body: any) =>
  (body.messages as any[]).some((m) => m.role === 'tool') ? turn([submit(0.9, 'policy says verify first', ['policy:refunds'])]) : turn([call('policy_lookup', { topic: 'refunds' })]);

describe('an agent judge in the results', () => {
  it('its factory is not called when it is built, only once per judgment', async () => {
    const fake = await fakes.openai(lookThenSubmit);
    let calls = 0;
    const judge = agentJudge(() => {
      calls++;
      return { model: openaiSpec(fake), tools: [policyLookup], guards: { maxSteps: 3 }, options: { env: TEST_ENV } };
    });
    const service = judgeService(judge);
    service.prepare([]);
    expect(calls).toBe(0);
    await service.grade(rubric('verifies first'), trialContext());
    expect(calls).toBe(1);
  });

  it('keeps its steps and tool calls on the assertion, tool data as digests under the default policy', async () => {
    const fake = await fakes.openai(lookThenSubmit);
    const judge = agentJudge(() => ({ model: openaiSpec(fake), tools: [policyLookup], guards: { maxSteps: 3 }, options: { env: TEST_ENV } }));
    const { result } = await judgeService(judge).grade(rubric('verifies first'), trialContext());
    expect(AssertionResultSchema.safeParse(result).success).toBe(true);
    const run = result.judge!.run!;
    expect(result.judge).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', steps: 2, toolCalls: 2 });
    expect(run.model).toBe('openai:gpt-4.1-mini');
    const tools = run.steps!.flatMap((s) => s.toolCalls ?? []);
    expect(tools.map((c) => c.name)).toEqual(['policy_lookup', 'submit_judgment']);
    // Safe: the arguments and the evidence it read are fingerprints, not content.
    expect(tools[0]!.args).toMatchObject({ hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), preview: { topic: '<string:7>' } });
    expect(tools[0]!.result).toMatchObject({ hash: expect.stringMatching(/^sha256:/) });
    expect(JSON.stringify(run)).not.toContain('refunds"');
  });

  it('with trace: full the run shows the evidence in clear; a protocol failure keeps its run too', async () => {
    const fake = await fakes.openai(lookThenSubmit);
    const judge = agentJudge(() => ({ model: openaiSpec(fake), tools: [policyLookup], guards: { maxSteps: 3 }, options: { env: TEST_ENV } }));
    const { result } = await judgeService(judge).grade(rubric('verifies first', { trace: 'full' }), trialContext());
    const first = result.judge!.run!.steps![0]!.toolCalls![0]!;
    expect(first).toMatchObject({ name: 'policy_lookup', args: { topic: 'refunds' } });
    expect(JSON.stringify(first.result)).toContain('policy:refunds');

    const stuck = await fakes.openai(() => turn([call('policy_lookup', { topic: 'refunds' })]));
    const looping = agentJudge(() => ({ model: openaiSpec(stuck), tools: [policyLookup], guards: { maxSteps: 2 }, options: { env: TEST_ENV } }));
    const failed = (await judgeService(looping).grade(rubric('verifies first'), trialContext())).result;
    expect(failed).toMatchObject({ status: 'error', judge: { steps: 2, toolCalls: 2 } });
    expect(failed.judge!.run!.steps!.map((s) => s.toolCalls!.map((c) => c.name))).toEqual([['policy_lookup'], ['policy_lookup']]);
  });
});

describe('an agent judge under --judge', () => {
  it('an assertion that passes its own agent judge keeps it under a model --judge, and the run says so once', async () => {
    const agentFake = await fakes.openai(lookThenSubmit);
    const cliFake = await fakes.openai(() => ({ json: { score: 0.1, reason: 'x', evidence: [] } }));
    const auditor = agentJudge(() => ({ model: openaiSpec(agentFake), tools: [policyLookup], guards: { maxSteps: 3 }, options: { env: TEST_ENV } }));
    const warnings: string[] = [];
    const cliModel = { provider: 'openai' as const, model: 'gpt-4.1-nano', baseURL: cliFake.url };
    const service = serviceWith({ judge: cliModel, override: cliModel, warnings });
    const own = rubric('verifies first', { judge: auditor as never });
    for (let i = 0; i < 2; i++) expect((await service.grade(own, trialContext())).result).toMatchObject({ status: 'passed', score: 0.9 });
    expect(agentFake.count).toBe(4);
    expect(cliFake.count).toBe(0);
    // Another assertion without its own judge is graded by --judge.
    expect((await service.grade(rubric('plain'), trialContext())).result).toMatchObject({ status: 'failed', score: 0.1 });
    expect(cliFake.count).toBe(1);
    expect(warnings.filter((w) => w.includes('kept its own judge'))).toEqual([expect.stringContaining('support/case › judge "verifies first" (its own judge object)')]);
  });
});
