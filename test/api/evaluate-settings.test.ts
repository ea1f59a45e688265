/**
 * Each evaluate() resolves its own settings: two evals run at once in one process, with different
 * judges, config keys or user assertion modules, each run with its own and neither sees the other's.
 */
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { evaluate, type AgentRun, type Judge, type JudgeRequest } from 'agent-evals';
import { removeTempDirs } from '../support/cli.js';
import { writeProject } from '../support/temp-project.js';

afterEach(() => vi.unstubAllEnvs());
afterAll(removeTempDirs);

/** A judge object that records what it was asked and always gives `score`. */
function judgeScoring(score: number, seen: JudgeRequest[]): Judge {
  return {
    provider: 'team',
    model: `scores-${score}`,
    async judge(request) {
      seen.push(request);
      return { score, reason: `always ${score}`, evidence: [], usage: { calls: 1, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 } };
    },
  };
}

const agent = (reply: string) => (): AgentRun => ({ reply, steps: [{ text: reply }] });

describe('two evaluate() calls in one process', () => {
  it('do not share settings: each run has its own judge, repeat and early stop', async () => {
    // The environment's judge is neither eval's: each names its own.
    vi.stubEnv('EVALS_JUDGE_PROVIDER', 'fake');
    vi.stubEnv('EVALS_JUDGE_MODEL', 'fake');
    const seenA: JudgeRequest[] = [];
    const seenB: JudgeRequest[] = [];
    const [a, b] = await Promise.all([
      evaluate(agent('from A')).input('q').useJudge(judgeScoring(0.9, seenA)).expectJudge('is fine').config({ repeat: 3 }).run(),
      evaluate(agent('from B')).input('q').useJudge(judgeScoring(0.2, seenB)).expectJudge('is fine').config({ repeat: 2, earlyStop: false }).run(),
    ]);
    // Every trial of A (however many its early stop lets run) is judged by A's judge; B runs both of its own.
    expect(seenA.map((r) => r.output)).toEqual(Array(a.trials.length).fill('from A'));
    expect(seenB.map((r) => r.output)).toEqual(['from B', 'from B']);
    expect(a.score).toBe(0.9);
    expect(b.score).toBe(0.2);
    expect(a.passed).toBe(true);
    expect(b.passed).toBe(false);
    expect(b.trials).toHaveLength(2);
    // A third eval with no judge of its own falls back to the environment's, not to A's or B's.
    const c = await evaluate(agent('from C')).input('q').expectJudge('is fine').run();
    expect(c.trials[0]!.assertions[0]!.judge).toMatchObject({ provider: 'fake' });
    expect(seenA.length + seenB.length).toBe(a.trials.length + 2);
  });
});

describe('user assertions of two runs in one process', () => {
  it("each run checks with its own config's module, even under the same name and at the same time", async () => {
    // Two modules that both name their assertion `tone`: one wants "please", the other "sorry".
    const module = (word: string) => `export default { apiVersion: 1, name: 'tone', evaluate: (reply) => ({ pass: reply.includes('${word}'), message: 'wants ${word}' }) };\n`;
    const dir = writeProject({ 'polite/tone.mjs': module('please'), 'sorry/tone.mjs': module('sorry') });
    const run = (assertions: string) =>
      evaluate(agent('please wait'))
        .input('q')
        .expect({ type: 'userAssertion', name: 'tone' })
        .config({ assertions: [join(dir, assertions)] })
        .run();
    const [polite, sorry] = await Promise.all([run('polite/tone.mjs'), run('sorry/tone.mjs')]);
    expect(polite.trials[0]!.assertions[0]).toMatchObject({ status: 'passed', message: expect.stringContaining('wants please') });
    expect(sorry.trials[0]!.assertions[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('wants sorry') });
    // A run whose config lists none has none: the name is unknown to it.
    const none = await evaluate(agent('please wait')).input('q').expect({ type: 'userAssertion', name: 'tone' }).run();
    expect(none.trials[0]!.assertions[0]!.message).toMatch(/no user assertion named "tone" is loaded/);
  });
});
