/**
 * maxSteps counts model calls the same way for every kind of target, usage recorded twice is
 * counted once with a warning, and a multi-turn trial keeps each of its turns (in-process runner,
 * fake OpenAI server, real SDK).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/targets/tool.js';
import type { TargetContext } from '../../src/targets/function-target.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, Scripted } from '../support/fake-server.js';
import { removeTempDirs } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** The trajectory both targets follow: a call asking for orders_lookup, the tool, a call answering. */
function trajectory(body: any): Scripted {
  const last = body.messages[body.messages.length - 1];
  if (last.role === 'tool' || last.content === 'answer now') return { text: 'A1050 has shipped.', usage: { input: 200, output: 50 }, model: 'gpt-4.1-mini-2025-04-14' };
  return { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1050' } }], usage: { input: 100, output: 20 }, model: 'gpt-4.1-mini-2025-04-14' };
}

const ordersLookup = tool({
  name: 'orders_lookup',
  parameters: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ id: orderId, status: 'shipped' }),
});

/** Two model calls through ctx.openai() and one tool call through ctx.tool(). */
async function functionAgent(input: string, ctx: TargetContext) {
  const openai = await ctx.openai();
  const first = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: input }] });
  const call = first.choices[0]!.message.tool_calls![0]!;
  await ctx.tool('orders_lookup', JSON.parse(call.type === 'function' ? call.function.arguments : '{}'), (args: { orderId: string }) => ({ id: args.orderId, status: 'shipped' }));
  const second = await openai.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'answer now' }] });
  return { run: { reply: second.choices[0]!.message.content ?? '' }, usages: [first.usage!, second.usage!] };
}

/** One file per target, the same case and assertions. */
const bothTargets = (max: number) =>
  Object.fromEntries(
    ['fn', 'model'].map((target) => [
      `evals/${target}.eval.yaml`,
      `suite: steps-${target}\ntarget: ${target}\ncases:\n  - id: ${target}\n    input: Where is A1050?\n    assert: [{ type: maxSteps, max: ${max} }, { type: calledTool, tool: orders_lookup }]\n`,
    ]),
  );

describe('maxSteps counts model calls, the same for every kind of target', () => {
  it.each([
    [2, 'passed', 'maxSteps 2: 2 steps'],
    [1, 'failed', 'maxSteps 1: 2 steps'],
  ])('maxSteps %i: a function target and a model-agent target with the same trajectory both %s', async (max, verdict, message) => {
    fake = await startFakeOpenAI({ script: trajectory });
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-dummy-key-000000');
    vi.stubEnv('OPENAI_BASE_URL', fake.url);
    const { results } = await runInProcess({
      files: bothTargets(max),
      config: {
        targets: {
          fn: async (input, ctx) => (await functionAgent(input, ctx)).run,
          model: { model: 'openai:gpt-4.1-mini', tools: [ordersLookup] },
        },
      },
    });
    for (const id of ['fn', 'model']) {
      const trial = results.cases.find((c) => c.id === id)!.trials[0]!;
      expect(trial.error, id).toBeUndefined();
      expect(trial.assertions[0], id).toMatchObject({ kind: 'maxSteps', status: verdict, message });
      expect(trial.usage.target, id).toMatchObject({ calls: 2, inputTokens: 300, outputTokens: 70 });
    }
    expect(fake.count).toBe(4);
  });
});

describe('usage recorded by ctx.openai() and returned in the run as well', () => {
  it('is counted once, with a warning', async () => {
    fake = await startFakeOpenAI({ script: trajectory });
    vi.stubEnv('OPENAI_API_KEY', 'sk-test-dummy-key-000000');
    vi.stubEnv('OPENAI_BASE_URL', fake.url);
    const yaml = 'suite: twice\ntarget: fn\nrepeat: 2\ncases:\n  - id: a\n    input: Where is A1050?\n    assert: [{ type: maxSteps, max: 2 }]\n';
    const { results, warnings } = await runInProcess({
      files: { 'evals/twice.eval.yaml': yaml },
      config: {
        earlyStop: false,
        targets: {
          // The agent also reports the SDK's usage itself, as it would for a tool that cannot see ctx.
          fn: async (input, ctx) => {
            const { run, usages } = await functionAgent(input, ctx);
            return { ...run, steps: usages.map((u) => ({ text: 'model call', usage: { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens }, model: 'openai:gpt-4.1-mini' })) };
          },
        },
      },
    });
    for (const trial of results.cases[0]!.trials) {
      expect(trial.usage.target).toMatchObject({ calls: 2, inputTokens: 300, outputTokens: 70 });
      expect(trial.assertions[0]).toMatchObject({ status: 'passed', message: 'maxSteps 2: 2 steps' });
      // The returned steps keep their text; their usage is the recorded calls'.
      expect(trial.trace.steps!.filter((s) => s.text === 'model call')).toEqual([{ text: 'model call' }, { text: 'model call' }]);
    }
    // Once per target, not once per trial.
    expect(warnings.filter((w) => w.includes('already recorded'))).toEqual([
      'target "fn" returned usage that ctx.openai() / ctx.anthropic() / ctx.usage() already recorded (2 calls with the same tokens): each call is counted once',
    ]);
  });

  it('is counted on top, with a warning, when it matches no recorded call', async () => {
    const { results, warnings } = await runInProcess({
      files: { 'evals/a.eval.yaml': 'suite: s\ntarget: fn\ncases:\n  - id: a\n    input: hi\n    assert: [{ type: contains, value: ok }]\n' },
      config: {
        targets: {
          fn: (_input, ctx) => {
            ctx.usage({ inputTokens: 10, outputTokens: 1, model: 'openai:gpt-4.1-mini' });
            return { reply: 'ok', usage: { inputTokens: 99, outputTokens: 9 }, model: 'openai:gpt-4.1-mini' };
          },
        },
      },
    });
    expect(results.cases[0]!.trials[0]!.usage.target).toMatchObject({ calls: 2, inputTokens: 109, outputTokens: 10 });
    expect(warnings.some((w) => w.startsWith('target "fn" returned usage besides what') && w.includes('both are counted'))).toBe(true);
  });
});

describe('a multi-turn trial', () => {
  it('keeps every turn in the results: message, reply, tool calls and usage', async () => {
    const yaml = 'suite: chat\ntarget: fn\ncases:\n  - id: c\n    turns:\n      - input: Where is A1050?\n      - input: And A1049?\n    assert: [{ type: contains, value: A1049 }]\n';
    const { results } = await runInProcess({
      files: { 'evals/chat.eval.yaml': yaml },
      config: {
        // The turns' tool calls are read back from the results: `full` keeps them raw there.
        trace: 'full',
        targets: {
          fn: async (input, ctx) => {
            const id = /[A-Z]\d{4}/.exec(input)![0];
            await ctx.tool('orders_lookup', { orderId: id }, () => ({ id }));
            ctx.usage({ inputTokens: 10 * ctx.turn, outputTokens: ctx.turn, model: 'openai:gpt-4.1-mini' });
            return `Order ${id} found (turn ${ctx.turn}).`;
          },
        },
      },
    });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.turns).toEqual([
      {
        input: 'Where is A1050?',
        reply: 'Order A1050 found (turn 1).',
        toolCalls: [expect.objectContaining({ name: 'orders_lookup', args: { orderId: 'A1050' } })],
        usage: expect.objectContaining({ calls: 1, inputTokens: 10, outputTokens: 1 }),
        durationMs: expect.any(Number),
      },
      {
        input: 'And A1049?',
        reply: 'Order A1049 found (turn 2).',
        toolCalls: [expect.objectContaining({ name: 'orders_lookup', args: { orderId: 'A1049' } })],
        usage: expect.objectContaining({ calls: 1, inputTokens: 20, outputTokens: 2 }),
        durationMs: expect.any(Number),
      },
    ]);
    expect(trial.reply).toBe('Order A1049 found (turn 2).');
  });

  it('a single-turn trial has no turns field', async () => {
    const { results } = await runInProcess({
      files: { 'evals/one.eval.yaml': 'suite: one\ntarget: fn\ncases:\n  - id: c\n    input: hi\n    assert: [{ type: contains, value: hi }]\n' },
      config: { targets: { fn: (input) => input } },
    });
    expect(results.cases[0]!.trials[0]!.turns).toBeUndefined();
  });
});
