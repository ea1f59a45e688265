/**
 * The judge fingerprint through the real runner and a fake OpenAI judge: every judged assertion
 * result records it, asked or not (a failed gate, an empty reply); trials that differ only in what
 * varies per trial (tool timings) record the same one; the case gathers them in its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { AgentRun } from '../../src/core/agent-run.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const env = { OPENAI_API_KEY: 'sk-test-dummy-key-000000' };
const EVALS = `suite: s
target: agent
cases:
  - id: timed
    input: where is my order?
    repeat: 3
    assert:
      - { type: judge, criteria: is polite }
  - id: gated
    input: where is my order?
    assert:
      - { type: equals, value: never this }
      - { type: judge, criteria: is polite }
  - id: empty
    input: say nothing
    assert:
      - { type: judge, criteria: is polite }
`;

/** Each trial's one tool call took another time: 3, 40, 900 ms. */
const DURATIONS = [3, 40, 900];

async function run() {
  fake = await startFakeOpenAI({ script: () => ({ json: { score: 1, reason: 'polite', evidence: [] } }) });
  return runInProcess({
    files: { 'evals/s.eval.yaml': EVALS },
    config: {
      targets: {
        agent: (input: string, ctx: { trial: { trial: number } }): AgentRun | string =>
          input === 'say nothing' ? '' : { reply: 'It ships today.', steps: [{ toolCalls: [{ name: 'orders_lookup', args: { id: 1 }, result: 'shipped', durationMs: DURATIONS[ctx.trial.trial]! }] }] },
      },
      judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: fake.url, maxRetries: 0 },
    },
    flags: { cache: false, earlyStop: false },
    env,
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
  });
}

describe('judge fingerprint in the results', () => {
  it('is the same on every trial whatever the tool timings, and on assertions not asked; the case gathers it', async () => {
    const { results } = await run();
    const byId = Object.fromEntries(results.cases.map((c) => [c.id, c]));
    const timed = byId.timed!;
    expect(timed.trials).toHaveLength(3);
    const fps = timed.trials.map((t) => t.assertions[0]!.judgeFingerprint);
    expect(fps[0]).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', criterion: { type: 'judge', threshold: 0.7 }, calledWith: { structuredOutput: 'json_schema', temperature: 0 } });
    expect(fps[1]).toEqual(fps[0]);
    expect(fps[2]).toEqual(fps[0]);
    expect(timed.judgeFingerprint).toMatchObject({ assertions: [{ key: 'judge#1', name: 'judge "is polite"', judge: fps[0] }] });

    // Not asked (a gate failed; an empty reply): zero judge calls, the same fingerprint recorded.
    const gated = byId.gated!.trials[0]!.assertions[1]!;
    expect(gated).toMatchObject({ status: 'skipped', skipped: 'gate-failed' });
    expect(gated.judgeFingerprint).toEqual(fps[0]);
    const empty = byId.empty!.trials[0]!.assertions[0]!;
    expect(empty.message).toContain('empty reply');
    expect(empty.judgeFingerprint).toEqual(fps[0]);
    expect(byId.gated!.judgeFingerprint!.hash).toBe(timed.judgeFingerprint!.hash);
    expect(fake!.count).toBe(3);
  });
});
