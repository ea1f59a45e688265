/**
 * The tool tape over a conversation (in-process runner): a model agent on a fake OpenAI server (the
 * real SDK client) looks an order up in turn 1 and refunds it in turn 2. Replayed, neither tool runs;
 * the steps are counted over the whole trial, so a changed refund in turn 2 diverges at step 2.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { removeTempDirs } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { tool } from '../../src/targets/tool.js';
import { readToolTape, toolTape } from '../../src/runner/loop/tool-tape.js';
import type { UserConfig } from '../../src/config/define-config.js';

afterAll(removeTempDirs);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const EVAL = `suite: desk
target: agent
cases:
  - id: refund
    turns:
      - input: Where is order A1?
      - input: Refund it, please.
        assert: [{ type: calledTool, tool: issue_refund }]
`;

describe('a tool tape over the turns of a conversation', () => {
  it('replays every turn; a change in turn 2 is step 2 of the trial', async () => {
    const refundArg = { orderId: 'A1' };
    fake = await startFakeOpenAI({
      script: (body: { messages: Array<{ role: string }> }) => {
        const last = body.messages[body.messages.length - 1]!;
        if (last.role === 'tool') return { text: 'Done.', usage: { input: 40, output: 4 } };
        const turn = body.messages.filter((m) => m.role === 'user').length;
        return turn === 1
          ? { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1' } }], usage: { input: 20, output: 5 } }
          : { toolCalls: [{ name: 'issue_refund', args: refundArg }], usage: { input: 60, output: 5 } };
      },
    });
    const ran: string[] = [];
    const lookup = tool({ name: 'orders_lookup', parameters: z.object({ orderId: z.string() }), execute: ({ orderId }) => (ran.push(`lookup ${orderId}`), { status: 'damaged' }) });
    const refund = tool({ name: 'issue_refund', parameters: z.object({ orderId: z.string() }), execute: ({ orderId }) => (ran.push(`refund ${orderId}`), { refundId: `RF-${orderId}` }) });
    const config: UserConfig = { trace: 'full', targets: { agent: { model: 'openai:gpt-4.1-mini', tools: [lookup, refund] } } };
    const env = { ...process.env, OPENAI_API_KEY: 'sk-test-dummy-key-000000', OPENAI_BASE_URL: fake.url };

    const first = await runInProcess({ files: { 'evals/desk.eval.yaml': EVAL }, config, env });
    expect(first.exitCode).toBe(0);
    expect(ran).toEqual(['lookup A1', 'refund A1']);
    const where = { file: 'first.json', cwd: first.dir, flag: '--replay-tools', dirs: [first.dir] };
    const tape = await readToolTape(first.results, where);

    ran.length = 0;
    const again = await runInProcess({ dir: first.dir, config, env, toolTape: toolTape(tape, false) });
    expect(again.exitCode).toBe(0);
    expect(ran).toEqual([]);
    const trial = again.results.cases[0]!.trials[0]!;
    expect(trial.toolTape).toEqual({ replayed: 2 });
    expect(trial.turns!.map((t) => t.toolCalls.map((c) => c.result))).toEqual([[{ status: 'damaged' }], [{ refundId: 'RF-A1' }]]);

    refundArg.orderId = 'A2';
    const changed = await runInProcess({ dir: first.dir, config, env, toolTape: toolTape(tape, false) });
    expect(ran).toEqual(['refund A2']);
    expect(changed.results.cases[0]!.trials[0]!.toolTape).toMatchObject({ replayed: 1, diverged: { step: 2, tool: 'issue_refund', reason: 'arguments' } });
  });
});
