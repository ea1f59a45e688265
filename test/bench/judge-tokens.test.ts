/**
 * The bench's judge-token accounting: the mock LLM's documented token rule, and a real in-process run
 * against the mock whose results file the bench's parser reads, agreeing with the mock's own counts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { estimateTokens, requestTokens, startMockLlm } from '../../bench/mock-llm.mjs';
import { judgeFigures, judgeTable, judgeUsageOf } from '../../bench/judge-tokens.mjs';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';

afterAll(removeTempDirs);

describe("the mock LLM's token rule", () => {
  it('cuts text into cl100k-style pieces and charges one token per started six characters of each', () => {
    expect(estimateTokens('')).toBe(0);
    // Ten pieces, none longer than six characters.
    expect(estimateTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    // One 20-letter word: four tokens; digits go three at a time.
    expect(estimateTokens('internationalization')).toBe(4);
    expect(estimateTokens('1234567')).toBe(3);
    // Pretty-printed JSON costs more than the same JSON compact.
    const value = { output: 'Answer', trace: { steps: [{ step: 1, text: 'Answer' }] } };
    expect(estimateTokens(JSON.stringify(value, null, 2))).toBeGreaterThan(estimateTokens(JSON.stringify(value)));
  });

  it('counts a request as its messages (3 tokens each of framing), 3 for the reply, and the response contract as JSON', () => {
    const system = 'You grade one criterion.';
    const user = '<task>\nGrade the OUTPUT.\n</task>';
    const schema = { type: 'object', properties: { score: { type: 'number' } } };
    const openai = {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'rubric', schema, strict: true } },
    };
    const text = 3 + (3 + estimateTokens(system)) + (3 + estimateTokens(user));
    expect(requestTokens(openai)).toEqual({
      inputTokens: text + estimateTokens(JSON.stringify(openai.response_format)),
      messageChars: system.length + user.length,
      userChars: user.length,
    });
    // Anthropic: top-level system (here as text blocks), content blocks, the forced tool.
    const tools = [{ name: 'rubric', input_schema: schema }];
    const anthropic = { system: [{ type: 'text', text: system }], messages: [{ role: 'user', content: [{ type: 'text', text: user }] }], tools };
    expect(requestTokens(anthropic)).toEqual({ inputTokens: text + estimateTokens(JSON.stringify(tools)), messageChars: system.length + user.length, userChars: user.length });
  });
});

describe("the bench's judge-token parser", () => {
  it("reads a real run's results file, and the runner's judge tokens equal what the mock counted", async () => {
    const mock = await startMockLlm({ latencyMs: 0 });
    try {
      const env = { OPENAI_API_KEY: 'bench-key', ANTHROPIC_API_KEY: 'bench-key' };
      const run = await runInProcess({
        files: {
          'evals/b.eval.yaml': `suite: b
target: agent
cases:
  - id: a
    input: where is order A1?
    reference: It has shipped.
    assert:
      - { type: judge, criteria: Names the order. }
      - { type: pairwise }
  - id: b
    input: where is order B22?
    assert:
      - { type: closedQa, question: Does it name an order? }
      - { type: judge, criteria: Is brief., judge: claude }
`,
        },
        config: {
          targets: { agent: (input: string) => `Order ${input.split(' ').pop()} has shipped.` },
          judge: { provider: 'openai', model: 'gpt-4.1-mini', baseURL: `${mock.url}/v1` },
          judges: { claude: { provider: 'anthropic', model: 'claude-haiku-4-5', baseURL: mock.url } },
        },
        flags: { cache: false },
        env,
        judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, env }),
      });
      const stats = mock.stats();
      // A rubric, a pairwise in both orders, a closedQa through OpenAI; a rubric through Anthropic.
      expect(stats.judge).toBe(5);
      expect(stats.anthropic).toBe(1);
      const usage = judgeUsageOf(run.results);
      expect(usage).toEqual({ calls: 5, inputTokens: stats.judgeInputTokens, outputTokens: stats.judgeOutputTokens });
      expect(usage.inputTokens).toBeGreaterThan(5 * 100);

      const figures = judgeFigures(stats, usage);
      expect(figures).toMatchObject({ judgments: 5, runnerAgrees: true, inputTokensPerJudgment: Math.round((stats.judgeInputTokens / 5) * 10) / 10 });
      expect(figures.requestBytesPerJudgment).toBeGreaterThan(figures.userCharsPerJudgment);
      expect(figures.messageCharsPerJudgment).toBeGreaterThan(figures.userCharsPerJudgment);
      // Other tokens in the results than the mock counted: the bench says so.
      expect(judgeFigures(stats, { ...usage, inputTokens: usage.inputTokens + 1 }).runnerAgrees).toBe(false);
    } finally {
      await mock.close();
    }
  });

  it('refuses a results file without judge usage', () => {
    expect(() => judgeUsageOf({ summary: {} })).toThrow(/summary\.usage\.judge/);
  });

  it('prints before, after and the change for each figure, rows matched on criterion type and judge', () => {
    const row = (type: string, input: number) => ({
      type,
      judge: 'openai',
      judgments: 10,
      inputTokensPerJudgment: input,
      outputTokensPerJudgment: 25,
      requestBytesPerJudgment: 2000,
      messageCharsPerJudgment: 1500,
      userCharsPerJudgment: 900,
      runnerAgrees: true,
    });
    const before = { commit: 'aaa', rows: [row('sql', 700), row('closedQa', 600)] };
    const after = { commit: 'bbb', rows: [row('closedQa', 300), row('factuality', 400)] };
    const lines = judgeTable(after, before).split('\n');
    expect(lines[0]).toContain('| input tokens before | input tokens after | change |');
    expect(lines[2]).toMatch(/^\| closedQa \| openai \| 10 \| 600 \| 300 \| -50% \| 25 \| 25 \| \+0% \|/);
    // A type the earlier run did not measure has no before figure.
    expect(lines[3]).toMatch(/^\| factuality \| openai \| 10 \| n\/a \| 400 \| n\/a \|/);
    expect(judgeTable(after).split('\n')[2]).toBe('| closedQa | openai | 10 | 300 | 25 | 2000 | 1500 | 900 | yes |');
  });
});
