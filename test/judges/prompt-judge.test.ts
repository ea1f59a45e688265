/**
 * `promptJudge(fn)` through the real runner in-process, as the config's `judge:` and as a named
 * judge of `judges:`: the callable gets the built-in judge prompt (untrusted block included), its
 * first JSON object is read with the built-in judge's validation, and a score out of range or a
 * missing reason errors the assertion as a gate.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { defineConfig, promptJudge, type PromptJudgeFn } from '../../src/index.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { JUDGE_SYSTEM } from '../../src/judges/prompt.js';
import { TRACE_CLOSE, TRACE_OPEN } from '../../src/judges/trace-render.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { UserConfig } from '../../src/config/define-config.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';

const REPLY = 'Your order A1049 shipped on Monday.';

const yaml = `suite: orders
target: agent
cases:
  - id: good
    input: Where is order A1049?
    assert:
      - { type: judge, criteria: Says where the order is., threshold: 0.8 }
  - id: out-of-range
    input: Where is order A1049?
    assert:
      - { type: judge, criteria: Says where the order is., threshold: 0.8, judge: overeager }
  - id: no-reason
    input: Where is order A1049?
    assert:
      - { type: judge, criteria: Says where the order is., threshold: 0.8, judge: terse }
`;

function run(config: Partial<UserConfig>) {
  return runInProcess({
    files: { 'evals/orders.eval.yaml': yaml },
    config: { targets: { agent: () => REPLY }, ...config },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env: {} }),
  });
}

afterAll(removeTempDirs);

describe('promptJudge', () => {
  it('passes at threshold 0.8 on a 0.82 answer and errors as a gate on a score of 1.4 or a missing reason', async () => {
    const prompts: Array<{ prompt: string; system: string; user: string }> = [];
    // Prose around the JSON, as an agent of one's own may answer: the first JSON object is read.
    const good: PromptJudgeFn = async (prompt, call) => {
      prompts.push({ prompt, system: call.system, user: call.user });
      return 'Here is my verdict: {"score":0.82,"reason":"Names the shipping day."} Thanks.';
    };
    const overeager: PromptJudgeFn = () => ({ text: '{"score": 1.4, "reason": "Better than perfect."}', usage: { inputTokens: 1000, outputTokens: 100 }, model: 'openai:gpt-4.1-mini' });
    const terse: PromptJudgeFn = () => '{"score": 0.9}';

    const { results, exitCode } = await run({ judge: promptJudge(good), judges: { overeager: promptJudge(overeager, { name: 'overeager-agent' }), terse: promptJudge(terse) } });

    const byId = Object.fromEntries(results.cases.map((c) => [c.id, c.trials[0]!]));
    expect(byId.good!.verdict).toBe('passed');
    expect(byId.good!.assertions[0]).toMatchObject({
      kind: 'judge',
      status: 'passed',
      score: 0.82,
      threshold: 0.8,
      reason: 'Names the shipping day.',
      judge: { provider: 'prompt', model: 'callable', usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 } },
    });

    expect(byId['out-of-range']!.verdict).toBe('failed');
    expect(byId['out-of-range']!.assertions[0]).toMatchObject({
      status: 'error',
      severity: 'gate',
      message: expect.stringContaining('"score" must be a number from 0 to 1 (got 1.4)'),
      raw: '{"score": 1.4, "reason": "Better than perfect."}',
      judge: { provider: 'prompt', model: 'overeager-agent', usage: { calls: 1, inputTokens: 1000, outputTokens: 100 } },
    });
    // What the callable reported it spent is priced by its model from the run's price table.
    expect(byId['out-of-range']!.assertions[0]!.judge!.usage.costUsd).toBeCloseTo((1000 * 0.4 + 100 * 1.6) / 1e6, 12);
    expect(byId['no-reason']!.assertions[0]).toMatchObject({ status: 'error', severity: 'gate', message: expect.stringContaining('missing or empty "reason"') });
    expect(results.summary.usage.judge).toMatchObject({ calls: 1, inputTokens: 1000, outputTokens: 100 });
    expect(exitCode).toBe(1);

    // The callable got the built-in judge prompt: our system text, then the task, the reply only inside the untrusted block.
    expect(prompts).toHaveLength(1);
    const { prompt, system, user } = prompts[0]!;
    expect(system).toBe(JUDGE_SYSTEM);
    expect(prompt).toBe(`${system}\n\n${user}`);
    expect(user).toContain('Says where the order is.');
    const open = user.indexOf(TRACE_OPEN);
    const close = user.indexOf(TRACE_CLOSE);
    expect(open).toBeGreaterThan(-1);
    expect(user.indexOf(REPLY)).toBeGreaterThan(open);
    expect(user.indexOf(REPLY)).toBeLessThan(close);
  });

  it('replaces the persona line with `system` and records it in the results', async () => {
    const systems: string[] = [];
    const persona = 'You are a strict senior support lead.';
    const judge = promptJudge(
      (_prompt, call) => {
        systems.push(call.system);
        return '{"score":1,"reason":"ok"}';
      },
      { system: persona },
    );
    const { results } = await run({ judge, judges: { overeager: judge, terse: judge } });
    expect(systems).toHaveLength(3);
    expect(systems[0]!.split('\n')[0]).toBe(persona);
    // The rules on untrusted data stay whatever the persona.
    expect(systems[0]!.split('\n').slice(1)).toEqual(JUDGE_SYSTEM.split('\n').slice(1));
    expect(results.cases[0]!.trials[0]!.assertions[0]!.judge).toMatchObject({ provider: 'prompt', system: persona });
  });

  it('is a judge a config takes as it is: typed by defineConfig, kept by the config schema', () => {
    const judge = promptJudge(() => '{"score":1,"reason":"ok"}');
    const config = defineConfig({ judge, judges: { reviewer: judge } });
    const parsed = ConfigSchema.parse(config);
    expect(parsed.judge).toBe(judge);
    expect(parsed.judges?.reviewer).toBe(judge);
  });
});
