/** An agent judge's fingerprint names its tools and what its calls are made with, as the judgment found them. */
import { describe, expect, it } from 'vitest';
import { policyLookup } from '../../evals/tools/policy-lookup.js';
import { fakeJudge, judgeService, rubric, submit, trialContext, turn, useFakes } from './agent-judge-helpers.js';

const fakes = useFakes();

describe('agent judge fingerprint', () => {
  it("records the judge's tools by name and its settings; other tools or another temperature give another fingerprint", async () => {
    const fake = await fakes.openai(() => turn([submit(1)]));
    const grade = async (over: Parameters<typeof fakeJudge>[1]) => (await judgeService(fakeJudge(fake, over)).grade(rubric('checks the policy'), trialContext())).result.judgeFingerprint!;
    const withTool = await grade({ tools: [policyLookup] });
    expect(withTool).toMatchObject({ tools: ['policy_lookup'], calledWith: { temperature: 0, structuredOutput: 'json_schema' } });
    const without = await grade({});
    expect(without.tools).toBeUndefined();
    expect(without.hash).not.toBe(withTool.hash);
    const warmer = await grade({ tools: [policyLookup], options: { temperature: 0.5 } });
    expect(warmer.calledWith).toMatchObject({ temperature: 0.5 });
    expect(warmer.hash).not.toBe(withTool.hash);
    expect((await grade({ tools: [policyLookup] })).hash).toBe(withTool.hash);
  });
});
