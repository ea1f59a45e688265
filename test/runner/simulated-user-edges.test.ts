/**
 * A simulated user's edges: the eval-file rules (exactly one of input / messages / turns /
 * simulatedUser; maxTurns bounded; not on a command target), the fake user model of a dry run, a
 * user model whose answer is not the JSON asked for, and the case fingerprint.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { UserError } from '../../src/core/errors.js';
import { caseFingerprint } from '../../src/suite/fingerprint.js';
import { makePlannedCase } from '../support/planned-case.js';
import { TEST_ENV } from '../judges/helpers.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  removeTempDirs();
});

const echo: TargetFunction = (input, ctx) => `ECHO ${ctx.turn}: ${input}`;
const caseYaml = (simulatedUser: string, extra = '') => `suite: s
target: agent
cases:
  - id: c
${extra}    simulatedUser:
${simulatedUser}
    assert:
      - { type: contains, value: ECHO }
`;

describe('simulated user edges', () => {
  it('a case gives exactly one of input, messages, turns or simulatedUser, and maxTurns is bounded', async () => {
    const both = runInProcess({ files: { 'evals/s.eval.yaml': caseYaml('      goal: g\n      maxTurns: 2', '    input: hi\n') }, config: { targets: { agent: echo } } });
    await expect(both).rejects.toThrow(/a case needs exactly one of "input", "messages", "turns" or "simulatedUser"/);
    await expect(both).rejects.toBeInstanceOf(UserError);
    const tooMany = runInProcess({ files: { 'evals/s.eval.yaml': caseYaml('      goal: g\n      maxTurns: 101') }, config: { targets: { agent: echo } } });
    await expect(tooMany).rejects.toThrow(/maxTurns/);
    const noTurns = runInProcess({ files: { 'evals/s.eval.yaml': caseYaml('      goal: g') }, config: { targets: { agent: echo } } });
    await expect(noTurns).rejects.toThrow(/maxTurns/);
  });

  it('is refused on a command target before the run', async () => {
    const planned = runInProcess({
      files: { 'evals/s.eval.yaml': caseYaml('      goal: g\n      maxTurns: 2') },
      config: { targets: { agent: { command: ['node', '-e', 'process.stdout.write(JSON.stringify({ reply: "hi" }))'] } } },
    });
    await expect(planned).rejects.toThrow('simulatedUser: this case has a simulated user, but target "agent" is a command target');
  });

  it('under --dry-run the fake user model sends the goal once and says the goal is met, at no cost', async () => {
    const { results } = await runInProcess({
      files: { 'evals/s.eval.yaml': caseYaml('      goal: GOAL-TEXT\n      model: openai:gpt-4.1-mini\n      maxTurns: 5') },
      config: { targets: { agent: echo } },
      flags: { dryRun: true },
    });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.turns?.map((t) => [t.input, t.reply])).toEqual([['GOAL-TEXT', 'ECHO 1: GOAL-TEXT']]);
    expect(trial.simulatedUser).toEqual({ stopped: 'goal-met' });
    expect(trial.usage.user).toMatchObject({ calls: 0, inputTokens: 0, costUsd: 0 });
  });

  it('fails the trial, keeping the turns before, when the user model answers something other than the JSON', async () => {
    const fake = await startFakeOpenAI({ script: [{ json: { done: false, goalMet: false, message: 'U1' } }, { text: 'sure, I will say: thanks!' }] });
    fakes.push(fake);
    const { results } = await runInProcess({
      files: { 'evals/s.eval.yaml': caseYaml(`      goal: g\n      model: { provider: openai, model: gpt-4.1-mini, baseURL: "${fake.url}" }\n      maxTurns: 5`) },
      config: { targets: { agent: echo } },
      env: { ...TEST_ENV },
    });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.verdict).toBe('failed');
    expect(trial.error).toMatch(/^simulated user \(openai:gpt-4\.1-mini\): the user model's answer is not JSON/);
    expect(trial.turns?.map((t) => t.input)).toEqual(['U1']);
    expect(trial.usage.user?.calls).toBe(2);
  });

  it("changes the case fingerprint with the simulated user's goal or limits, and leaves other cases' alone", () => {
    const base = makePlannedCase({ assertions: [{ type: 'contains', value: 'x' }] }, { suite: 's', file: 'evals/s.eval.yaml', input: 'g' });
    const withUser = { ...base, simulatedUser: { goal: 'g', maxTurns: 3 } };
    expect(caseFingerprint(withUser)).not.toBe(caseFingerprint(base));
    expect(caseFingerprint({ ...base, simulatedUser: { goal: 'g', maxTurns: 4 } })).not.toBe(caseFingerprint(withUser));
  });
});
