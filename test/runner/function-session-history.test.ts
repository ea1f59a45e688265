/**
 * `ctx.session` through the real runner: an AI SDK agent keeps its own message history (tool call
 * and tool result included) across the turns of a YAML `turns:` case, and each trial of a repeat
 * starts from a fresh session. Checked in the fake OpenAI server's request log.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateText, stepCountIs, tool, type ModelMessage } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { z } from 'zod';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { runInProcess } from '../support/run-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import { onNewestLine } from '../support/framework-line.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const FIRST = 'Where is order A1049?';
const SECOND = 'And when will it arrive?';

const yaml = `suite: orders
target: agent
cases:
  - id: two-turns
    turns:
      - input: ${FIRST}
        assert: [{ type: contains, value: shipped }]
      - input: ${SECOND}
        assert: [{ type: contains, value: Friday }]
`;

afterAll(removeTempDirs);

describe('ctx.session on a function target', () => {
  it("sends the framework's full history, first turn's tool call and result included, on turn 2; fresh per trial", async () => {
    // The fake answers by the conversation it is sent, so concurrent trials each get their own script.
    fake = await startFakeOpenAI({
      script: (body: { messages: Array<{ role: string; content: unknown }> }) => {
        const last = body.messages[body.messages.length - 1]!;
        if (last.role === 'tool') return { text: 'Order A1049 has shipped.', usage: { input: 30, output: 6 } };
        if (last.content === FIRST) return { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' } }], usage: { input: 20, output: 4 } };
        return { text: 'It arrives on Friday.', usage: { input: 50, output: 5 } };
      },
    });
    const url = fake.url;
    const sessionsAtTurnOne: unknown[] = [];
    const agent: TargetFunction = async (input, ctx) => {
      const openai = createOpenAI({ baseURL: url, apiKey: 'sk-test', fetch: ctx.fetch('openai') });
      const session = ctx.session as { history?: ModelMessage[] };
      if (ctx.turn === 1) sessionsAtTurnOne.push({ ...session });
      const history = session.history ?? [];
      const user: ModelMessage = { role: 'user', content: input };
      const result = await generateText({
        model: openai.chat('gpt-4.1-mini'),
        messages: [...history, user],
        tools: {
          orders_lookup: tool({
            description: 'Look up an order',
            inputSchema: z.object({ orderId: z.string() }),
            execute: async ({ orderId }) => ({ orderId, status: 'shipped', eta: 'Friday' }),
          }),
        },
        stopWhen: stepCountIs(3),
      });
      // Every step's messages: `responseMessages` in AI SDK 7 (its `response.messages` is the last step's), `response.messages` in 6.
      const messages = onNewestLine ? (result as unknown as { responseMessages: ModelMessage[] }).responseMessages : result.response.messages;
      session.history = [...history, user, ...messages];
      return result.text;
    };

    const { results, exitCode } = await runInProcess({ files: { 'evals/orders.eval.yaml': yaml }, config: { targets: { agent } }, selection: { repeat: 2 } });

    expect(exitCode).toBe(0);
    const trials = results.cases[0]!.trials;
    expect(trials.map((t) => [t.verdict, t.reply])).toEqual([
      ['passed', 'It arrives on Friday.'],
      ['passed', 'It arrives on Friday.'],
    ]);
    // ctx.fetch recorded each trial's three model calls.
    for (const t of trials) expect(t.usage.target).toMatchObject({ calls: 3, inputTokens: 100, outputTokens: 15 });
    // Every trial's first turn saw an empty session: nothing leaks from the other trial.
    expect(sessionsAtTurnOne).toEqual([{}, {}]);

    // Turn 2 of each trial sent the whole history the AI SDK keeps, in the wire format, and only its own.
    const turnTwo = fake.bodies.filter((b: { messages: Array<{ role: string; content: unknown }> }) => b.messages[b.messages.length - 1]!.content === SECOND);
    expect(turnTwo).toHaveLength(2);
    for (const body of turnTwo) {
      const messages = body.messages as Array<Record<string, unknown>>;
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
      const call = (messages[1]!.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>)[0]!;
      expect(call.function.name).toBe('orders_lookup');
      expect(JSON.parse(call.function.arguments)).toEqual({ orderId: 'A1049' });
      expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: call.id });
      expect(JSON.parse(messages[2]!.content as string)).toEqual({ orderId: 'A1049', status: 'shipped', eta: 'Friday' });
      expect(messages[3]).toMatchObject({ role: 'assistant', content: 'Order A1049 has shipped.' });
      expect(messages[0]).toMatchObject({ role: 'user', content: FIRST });
    }
  });
});
