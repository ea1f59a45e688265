/** What a function target returns is checked with an error a user can act on, not zod's issue list as JSON. */
import { describe, expect, it } from 'vitest';
import { functionTarget, type TargetFunction } from '../../src/targets/function-target.js';
import { never, trialInput } from './helpers.js';

describe('a function target that returns an object that is not an AgentRun', () => {
  it("names the target and the wrong fields, and how to return a framework's result", async () => {
    // The usual slip: the framework's own result (generateText's has `text`, no `reply`).
    const target = functionTarget('agent', (async () => ({ text: 'Your order shipped.' })) as unknown as TargetFunction);
    const err = (await target.run(trialInput('where is it?'), never).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      'target "agent" returned an object that is not an AgentRun (reply: Invalid input: expected string, received undefined; (root): Unrecognized key: "text"); ' +
        "return a string, { reply, steps?, usage?, ... }, or a framework's result through its adapter (e.g. fromAISDK(result))",
    );
  });

  it('counts the issues past the first three', async () => {
    const target = functionTarget('agent', (async () => ({ reply: 1, steps: 'x', usage: 'y', model: 5 })) as unknown as TargetFunction);
    await expect(target.run(trialInput('x'), never)).rejects.toThrow(
      /^target "agent" returned an object that is not an AgentRun \(reply: [^;]+; steps: [^;]+; usage: [^;]+; and 1 more\); return a string/,
    );
  });
});
