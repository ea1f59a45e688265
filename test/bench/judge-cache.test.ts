/**
 * The judge-cache bench: its tool-using agent run in-process over `--repeat 5` against the mock LLM,
 * the figures read from the results file and the mock's counts, and the table. No timing is asserted:
 * the agent's tools wait a few ms each, differently on every call, and only counts are read.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startMockLlm } from '../../bench/mock-llm.mjs';
import { cacheFigures, cacheTable, toolAgent, type CacheFigures } from '../../bench/judge-cache-figures.mjs';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';

afterAll(removeTempDirs);

describe("the judge-cache bench's agent and figures", () => {
  it('five trials of a case whose tools took different times make one judge call and four from the cache', async () => {
    const mock = await startMockLlm({ latencyMs: 0 });
    try {
      const env = { OPENAI_API_KEY: 'bench-key' };
      const cases = [0, 1, 2].map((i) => `  - id: c${i}\n    input: What is the status of order A${1000 + i}?\n    assert:\n      - { type: judge, criteria: Names the status. }`);
      const run = await runInProcess({
        files: { 'evals/b.eval.yaml': ['suite: b', 'target: tools', 'cases:', ...cases, ''].join('\n') },
        config: {
          targets: { tools: toolAgent([1, 4, 2, 7, 3]) },
          judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: `${mock.url}/v1` },
        },
        flags: { earlyStop: false },
        selection: { repeat: 5 },
        env,
        judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
      });
      // Every trial made its two tool calls (each waiting the next delay in turn), and gave the same reply.
      for (const c of run.results.cases) {
        expect(c.trials.map((t) => (t.trace.steps ?? []).flatMap((step) => step.toolCalls ?? []).length)).toEqual([2, 2, 2, 2, 2]);
        expect(new Set(c.trials.map((t) => t.reply)).size).toBe(1);
      }
      const figures = cacheFigures(run.results, mock.stats());
      expect(figures).toMatchObject({ trials: 15, judgments: 15, callsMade: 3, callsFromCache: 12, hitRate: 0.8, runnerAgrees: true });
      expect(figures.inputTokens).toBe(mock.stats().judgeInputTokens);
      expect(figures.tokensSavedByCache).toBeGreaterThan(0);
      // Other tokens in the results than the mock counted: the bench says so.
      expect(cacheFigures(run.results, { ...mock.stats(), judgeInputTokens: figures.inputTokens + 1 }).runnerAgrees).toBe(false);
    } finally {
      await mock.close();
    }
  });

  it('refuses a results file without counters', () => {
    expect(() => cacheFigures({ summary: {} }, { judge: 0, judgeInputTokens: 0, judgeOutputTokens: 0 })).toThrow(/summary\.counters/);
  });

  it('prints one row per figure, before and after side by side', () => {
    const figures = (made: number, fromCache: number): CacheFigures => ({
      trials: 100,
      judgments: 100,
      callsMade: made,
      callsFromCache: fromCache,
      hitRate: fromCache / 100,
      inputTokens: made * 700,
      outputTokens: made * 27,
      tokensSavedByCache: fromCache * 700,
      runnerAgrees: true,
    });
    const lines = cacheTable({ commit: 'bbb', figures: figures(20, 80) }, { commit: 'aaa', figures: figures(100, 0) }).split('\n');
    expect(lines[0]).toBe('| figure | before (aaa) | after (bbb) |');
    expect(lines).toContain('| judge calls made | 100 | 20 |');
    expect(lines).toContain('| cache hit rate | 0 | 0.8 |');
    expect(cacheTable({ commit: 'bbb', figures: figures(20, 80) }).split('\n')).toContain('| judge calls from the cache | 80 |');
  });
});
