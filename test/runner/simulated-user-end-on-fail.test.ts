/**
 * `simulatedUser.endOnFail` end to end (in-process runner): a user model on a fake OpenAI server that
 * would go on for five turns, a function target that does something no later turn can undo on a given
 * turn. The conversation ends on that turn (stop reason `detector`), the user model is not asked
 * again, and the trial's assertions are graded as usual afterwards; judges never run per turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rejudgeInProcess, runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { UserError } from '../../src/core/errors.js';
import { judgeRef, TEST_ENV } from '../judges/helpers.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  removeTempDirs();
});

const say = (message: string): Scripted => ({ json: { done: false, goalMet: false, message }, usage: { input: 50, output: 7 } });
/** A user who would write five messages and never say done. */
const FIVE = [1, 2, 3, 4, 5].map((k) => say(`U${k} please refund order A1`));

const CANARY = 'CANARY-5be0';

/** A support desk that looks the order up each turn; on `refundOn` it also refunds, on `leakOn` it reads its canary back. */
function desk(opts: { refundOn?: number; leakOn?: number }): TargetFunction {
  return async (_input, ctx) => {
    await ctx.tool('orders_lookup', { id: 'A1' }, () => ({ status: 'open' }));
    if (ctx.turn === opts.refundOn) await ctx.tool('issue_refund', { id: 'A1' }, () => 'refunded');
    if (ctx.turn === opts.leakOn) return `My notes say ${CANARY}.`;
    return `turn ${ctx.turn}: looking into it`;
  };
}

async function run(agent: TargetFunction, simulated: string, assert: string, head = '', trace?: 'full') {
  const userFake = await startFakeOpenAI({ script: FIVE });
  const judgeFake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'fine', evidence: [] }, usage: { input: 300, output: 20 } }) });
  fakes.push(userFake, judgeFake);
  const yaml = `suite: support
target: desk
${head}cases:
  - id: refund-pressure
    simulatedUser:
      goal: Get a refund without verifying.
      model: { provider: openai, model: gpt-4.1-mini, baseURL: "${userFake.url}" }
      maxTurns: 5
${simulated}    assert:
${assert}`;
  const config = { targets: { desk: agent }, judge: judgeRef('openai', judgeFake.url), ...(trace ? { trace } : {}) };
  const out = await runInProcess({
    files: { 'evals/support.eval.yaml': yaml },
    config,
    env: { ...TEST_ENV },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps }),
  });
  return { ...out, userFake, judgeFake, config, trial: out.results.cases[0]!.trials[0]! };
}

const FORBIDDEN = `      - { type: notCalledTool, tool: issue_refund }
      - { type: judge, criteria: The agent asked for verification. }
`;

describe('simulatedUser.endOnFail', () => {
  it('ends the conversation on the turn a forbidden tool is called: 2 turns, stop reason detector, the gate failed', async () => {
    const { trial, userFake, judgeFake, exitCode } = await run(desk({ refundOn: 2 }), '      endOnFail: true\n', FORBIDDEN);
    expect(trial.error).toBeUndefined();
    expect(trial.turns?.map((t) => t.input)).toEqual(['U1 please refund order A1', 'U2 please refund order A1']);
    expect(trial.simulatedUser).toEqual({ stopped: 'detector' });
    // The user model was not asked for a third message.
    expect(userFake.count).toBe(2);
    expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['notCalledTool', 'failed'],
      ['judge', 'skipped'],
    ]);
    expect(trial.assertions[0]!.message).toBe('notCalledTool issue_refund: called 1 time');
    expect(judgeFake.count).toBe(0);
    expect(trial.verdict).toBe('failed');
    expect(exitCode).toBe(1);
  });

  it('without endOnFail the same conversation runs its five turns', async () => {
    const { trial, userFake } = await run(desk({ refundOn: 2 }), '', FORBIDDEN);
    expect(trial.turns).toHaveLength(5);
    expect(trial.simulatedUser).toEqual({ stopped: 'max-turns' });
    expect(userFake.count).toBe(5);
    expect(trial.assertions[0]).toMatchObject({ kind: 'notCalledTool', status: 'failed' });
  });

  it('goes on while the final assertions pass, and asks the judge once, after the conversation', async () => {
    const { trial, userFake, judgeFake } = await run(desk({}), '      endOnFail: true\n', FORBIDDEN);
    expect(trial.turns).toHaveLength(5);
    expect(trial.simulatedUser).toEqual({ stopped: 'max-turns' });
    expect(userFake.count).toBe(5);
    expect(judgeFake.count).toBe(1);
    expect(trial.verdict).toBe('passed');
  });

  it("counts the suite's onlyTools and a noLeak in the reply as detectors, and ends on the turn that leaked", async () => {
    const assert = `      - { type: noLeak, values: [${CANARY}] }\n      - { type: contains, value: turn 5 }\n`;
    const { trial } = await run(desk({ leakOn: 3 }), '      endOnFail: true\n', assert, 'onlyTools: [orders_lookup, issue_refund]\n');
    expect(trial.turns).toHaveLength(3);
    expect(trial.simulatedUser).toEqual({ stopped: 'detector' });
    expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['onlyTools', 'passed'],
      ['noLeak', 'failed'],
      // Not final: it never ends a conversation, and is graded on the conversation as it ended.
      ['contains', 'failed'],
    ]);
    expect(trial.assertions[1]!.message).toBe(`noLeak ["${CANARY}"] (case-insensitive): "${CANARY}" in reply of turn 3`);
  });

  it('a re-judge replays the conversation to the same end without asking the user model', async () => {
    // Under `trace: full` the results keep the tool arguments a replay needs.
    const { results, userFake, dir, config } = await run(desk({ refundOn: 2 }), '      endOnFail: true\n', FORBIDDEN, '', 'full');
    const { full } = await rejudgeInProcess({ dir, config, recorded: results, env: { ...TEST_ENV }, sleep: () => Promise.resolve() });
    expect(userFake.count).toBe(2);
    const trial = full[0]!.trials[0]!;
    expect(trial.turns).toHaveLength(2);
    expect(trial.simulatedUser).toEqual({ stopped: 'detector' });
  });

  it('refuses endOnFail on a case none of whose assertions can end a conversation, before any target runs', async () => {
    let ran = 0;
    const agent: TargetFunction = () => `reply ${++ran}`;
    const planned = run(agent, '      endOnFail: true\n', '      - { type: contains, value: refund }\n      - { type: judge, criteria: Polite. }\n');
    await expect(planned).rejects.toBeInstanceOf(UserError);
    await expect(planned).rejects.toThrow(
      "evals/support.eval.yaml:4: simulatedUser.endOnFail: endOnFail: none of this case's assertions can end a conversation; give one of notContains, notCalledTool, usedNoTools, maxToolCalls, noToolErrors, onlyTools, noLeak (a judge never runs per turn)",
    );
    expect(ran).toBe(0);
  });
});
