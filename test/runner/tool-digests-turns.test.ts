/**
 * The tools part over a conversation (in-process runner): a model agent on a fake OpenAI server (the
 * real SDK client) offered two tools, over two turns. The trial records each tool's digest once for the
 * whole conversation, the case derives its tools part from it, and a re-judge of the recording (which
 * calls no target and restores the recorded trace) keeps the same tools part, so a re-judged baseline
 * compares as the recorded one does.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { removeTempDirs } from '../support/cli.js';
import { rejudgeInProcess, runInProcess } from '../support/run-in-process.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { tool } from '../../src/targets/tool.js';
import { toolDigests } from '../../src/targets/tool-digests.js';
import type { UserConfig } from '../../src/config/define-config.js';

afterAll(removeTempDirs);

const EVAL = `suite: desk
target: agent
cases:
  - id: refund
    turns:
      - input: Where is order A1?
      - input: Refund it, please.
        assert: [{ type: calledTool, tool: issue_refund }]
`;

describe('the tools part of a conversation', () => {
  it('each turn offers the same tools: the trial records them once, the case and a re-judge of it keep the same part', async () => {
    const fake = await startFakeOpenAI({
      script: (body: { messages: Array<{ role: string }> }) => {
        const last = body.messages[body.messages.length - 1]!;
        if (last.role === 'tool') return { text: 'Done.', usage: { input: 40, output: 4 } };
        const turn = body.messages.filter((m) => m.role === 'user').length;
        return { toolCalls: [{ name: turn === 1 ? 'orders_lookup' : 'issue_refund', args: { orderId: 'A1' } }], usage: { input: 20, output: 5 } };
      },
    });
    try {
      const tools = [
        tool({ name: 'orders_lookup', description: 'Look an order up', parameters: z.object({ orderId: z.string() }), execute: () => ({ status: 'damaged' }) }),
        tool({ name: 'issue_refund', description: 'Refund an order', parameters: z.object({ orderId: z.string() }), execute: () => ({ refundId: 'RF-A1' }) }),
      ];
      const config: UserConfig = { trace: 'full', targets: { agent: { model: 'openai:gpt-4.1-mini', tools } } };
      const env = { ...process.env, OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };
      const run = await runInProcess({ files: { 'evals/desk.eval.yaml': EVAL }, config, env });
      expect(run.exitCode).toBe(0);
      const recorded = run.results.cases[0]!;
      expect(recorded.trials[0]!.turns).toHaveLength(2);
      expect(recorded.trials[0]!.trace.toolDigests).toEqual(toolDigests(tools));
      expect(recorded.toolsFingerprint).toEqual({ hash: expect.any(String), tools: toolDigests(tools) });

      const before = fake.count;
      const again = await rejudgeInProcess({ dir: run.dir, config, recorded: run.results, env, sleep: () => Promise.resolve() });
      expect(fake.count).toBe(before);
      expect(again.outcome.cases[0]!.toolsFingerprint).toEqual(recorded.toolsFingerprint);
    } finally {
      await fake.close();
    }
  });
});
