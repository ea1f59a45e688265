/**
 * The AI SDK example (examples/frameworks/ai-sdk) run in-process by the real runner, the real `ai`
 * and `@ai-sdk/openai` pointed at the fake OpenAI server: trajectory gates through `fromAISDK`
 * (generated and streamed), tool errors, and usage and cost through the adapter, through
 * `ctx.fetch` alone and through both.
 * `trace: 'full'`: the tool calls are read back from the results, which digest them under `safe`.
 * The example is written for ai 7 + @ai-sdk/openai 4 (what docs/guide/targets.md names): it runs on
 * the newest line; the previous line (ai 6) skips it, as its `instructions` and `isStepCount` are 7's.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import type { UserConfig } from '../../src/config/define-config.js';
import { onNewestLine } from '../support/framework-line.js';
import { resolvePrice } from '../../src/providers/pricing.js';
import type { CaseResult, Results } from '../../src/core/results-schema.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, FakeUsage, Scripted } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { tempDir } from '../support/cli.js';

const EXAMPLE = join(import.meta.dirname, '../../examples/frameworks/ai-sdk');
// Imported only on the newest line (a variable: the previous line's type check does not follow it).
const CONFIG = '../../examples/frameworks/ai-sdk/evals.config.js';
let config: UserConfig;
beforeAll(async () => {
  if (onNewestLine) config = ((await import(CONFIG)) as { default: UserConfig }).default;
});
const SERVED_MODEL = 'gpt-4.1-mini-2025-04-14';

/** Every answer the fake served, with the user prompt of its conversation. */
let served: Array<{ prompt: string; usage: Required<Pick<FakeUsage, 'input' | 'output' | 'cached'>> }> = [];
let fake: FakeProvider;

beforeEach(async () => {
  served = [];
  fake = await startFakeOpenAI({ script: (body) => storeModel(body) });
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-ai-sdk');
  vi.stubEnv('OPENAI_BASE_URL', fake.url);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
});

/**
 * A scripted model for the example's tools: looks the order up, refunds it when asked, then
 * answers from the tool results. An unknown order gets a lookup that throws and a refund with a
 * number id that the SDK refuses. Usage differs per step, so each call is told apart.
 */
function storeModel(body: any): Scripted {
  const messages: any[] = body.messages;
  const prompt = String(messages.find((m) => m.role === 'user')?.content);
  const step = messages.filter((m) => m.role === 'assistant').length;
  const results = new Map<string, any>();
  const names = new Map<string, string>();
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    if (m.role === 'tool') results.set(names.get(m.tool_call_id)!, tryJson(m.content));
  }
  const usage = { input: 150 + 100 * step, output: 20 + 7 * step, cached: step === 0 ? 0 : 64 };
  served.push({ prompt, usage });
  const reply = (s: Omit<Extract<Scripted, { toolCalls: unknown }>, 'usage' | 'model'> | { text: string }): Scripted => ({ ...s, usage, model: SERVED_MODEL });
  const orderId = /\b[A-Z]\d{4}\b/.exec(prompt)?.[0] ?? 'none';
  if (orderId === 'Z9999') {
    if (step === 0)
      return reply({
        toolCalls: [
          { name: 'orders_lookup', args: { orderId } },
          { name: 'refunds_issue', args: { orderId: 9999 } },
        ],
      });
    return reply({ text: `I could not find order ${orderId}, so nothing was refunded.` });
  }
  if (!results.has('orders_lookup')) return reply({ toolCalls: [{ name: 'orders_lookup', args: { orderId } }] });
  const order = results.get('orders_lookup');
  if (/refund/i.test(prompt) && !results.has('refunds_issue')) return reply({ toolCalls: [{ name: 'refunds_issue', args: { orderId } }] });
  if (results.has('refunds_issue')) return reply({ text: `Refunded $${results.get('refunds_issue').refundedUsd.toFixed(2)} for order ${orderId}.` });
  return reply({ text: `Order ${orderId} is ${order.status}.` });
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The example's eval file, run where it is (as `agent-evals run --config …/evals.config.ts` would). */
function runExample(selection: { target?: string; filter?: string[] } = {}, files?: Record<string, string>) {
  return runInProcess({
    ...(files ? { files } : { dir: EXAMPLE }),
    config: { ...config, trace: 'full', outputDir: tempDir('agent-evals-ai-sdk-') },
    selection,
  });
}

function caseOf(results: Results, id: string, target?: string): CaseResult {
  const found = results.cases.find((c) => c.id === id && (target === undefined || c.matrix?.target === target));
  if (!found) throw new Error(`no case ${id} ${target ?? ''} in ${results.cases.map((c) => `${c.id}[${c.matrix?.target}]`).join(', ')}`);
  return found;
}

/** What the fake served for one prompt, and its cost at the price table's gpt-4.1-mini price. */
function servedFor(prompt: string) {
  const price = resolvePrice(`openai:${SERVED_MODEL}`)!;
  const calls = served.filter((s) => s.prompt === prompt).map((s) => s.usage);
  const sum = (f: (u: (typeof calls)[number]) => number) => calls.reduce((t, u) => t + f(u), 0);
  return {
    calls: calls.length,
    inputTokens: sum((u) => u.input),
    outputTokens: sum((u) => u.output),
    cachedInputTokens: sum((u) => u.cached),
    costUsd: sum((u) => (u.input - u.cached) * price.input + u.cached * price.cachedInput! + u.output * price.output) / 1e6,
  };
}

describe.runIf(onNewestLine)('the AI SDK example (ai 7; skipped on the ai 6 line) through fromAISDK', () => {
  it('passes calledTool with args, notCalledTool, toolOrder and noToolErrors, generated and streamed', async () => {
    const { results, exitCode } = await runExample();
    expect(results.cases.map((c) => `${c.id}[${c.matrix?.target}] ${c.verdict}`).sort()).toEqual([
      'bad-tool-calls[ai-sdk-stream] passed',
      'bad-tool-calls[ai-sdk] passed',
      'refund-delivered-order[ai-sdk-stream] passed',
      'refund-delivered-order[ai-sdk] passed',
      'where-is-my-order[ai-sdk-stream] passed',
      'where-is-my-order[ai-sdk] passed',
    ]);
    expect(exitCode).toBe(0);
    for (const target of ['ai-sdk', 'ai-sdk-stream']) {
      const refund = caseOf(results, 'refund-delivered-order', target).trials[0]!;
      expect(refund.assertions.map((a) => `${a.kind} ${a.status}`)).toEqual(['calledTool passed', 'calledTool passed', 'toolOrder passed', 'noToolErrors passed', 'contains passed']);
      expect(refund.reply).toBe('Refunded $42.50 for order A1001.');
      expect(refund.trace.instructions).toContain('Refund only delivered orders.');
      expect(refund.trace.stopReason).toBe('stop');
      expect(refund.trace.steps!.map((s) => s.toolCalls ?? [])).toEqual([
        [{ name: 'orders_lookup', args: { orderId: 'A1001' }, result: { orderId: 'A1001', status: 'delivered', totalUsd: 42.5 }, isError: false }],
        [{ name: 'refunds_issue', args: { orderId: 'A1001' }, result: { orderId: 'A1001', refundedUsd: 42.5 }, isError: false }],
        [],
      ]);
      const lookup = caseOf(results, 'where-is-my-order', target).trials[0]!;
      expect(lookup.assertions.map((a) => `${a.kind} ${a.status}`)).toEqual(['calledTool passed', 'notCalledTool passed', 'noToolErrors passed', 'contains passed']);
    }
    // The streamed run is the generated run, step for step.
    for (const id of ['refund-delivered-order', 'where-is-my-order', 'bad-tool-calls']) {
      expect(caseOf(results, id, 'ai-sdk-stream').trials[0]!.trace).toEqual(caseOf(results, id, 'ai-sdk').trials[0]!.trace);
    }
  });

  it('records a throwing tool and a refused call (invalid arguments) with isError, so noToolErrors fails', async () => {
    const { results } = await runExample({ target: 'ai-sdk', filter: ['ai-sdk/support/bad-tool-calls'] });
    const trial = caseOf(results, 'bad-tool-calls').trials[0]!;
    expect(trial.trace.steps![0]!.toolCalls).toEqual([
      { name: 'orders_lookup', args: { orderId: 'Z9999' }, result: 'no order Z9999', isError: true },
      { name: 'refunds_issue', args: { orderId: 9999 }, result: expect.stringContaining('Invalid input for tool refunds_issue'), isError: true },
    ]);

    const gated = await runInProcess({
      files: { 'faults.eval.yaml': ['suite: faults', 'target: ai-sdk', 'cases:', '  - id: bad', '    input: Refund order Z9999 now.', '    assert:', '      - type: noToolErrors'].join('\n') },
      config: { ...config, trace: 'full', evals: ['*.eval.yaml'], outputDir: tempDir('agent-evals-ai-sdk-') },
    });
    const bad = caseOf(gated.results, 'bad');
    expect(bad.verdict).toBe('failed');
    expect(bad.trials[0]!.assertions[0]).toMatchObject({ kind: 'noToolErrors', status: 'failed' });
    expect(bad.trials[0]!.assertions[0]!.message).toContain('2 of 2 tool calls errored');
    expect(gated.exitCode).toBe(1);
  });
});

describe.runIf(onNewestLine)('usage and cost of the AI SDK example (ai 7; skipped on the ai 6 line)', () => {
  const prompt = 'Please refund order A1001.';
  const refundOnly = ['ai-sdk/support/refund-delivered-order'];

  for (const target of ['ai-sdk', 'ai-sdk-stream', 'ai-sdk-fetch', 'ai-sdk-fetch-stream']) {
    it(`${target}: the trial's target usage and cost are what the fake served, at the price table's price`, async () => {
      const { results, warnings } = await runExample({ target, filter: refundOnly });
      const trial = caseOf(results, 'refund-delivered-order').trials[0]!;
      const expected = servedFor(prompt);
      expect(expected.calls).toBe(3);
      const { costUsd, ...tokens } = trial.usage.target;
      expect(tokens).toEqual({ calls: 3, inputTokens: expected.inputTokens, outputTokens: expected.outputTokens, cachedInputTokens: expected.cachedInputTokens, reasoningTokens: 0 });
      expect(costUsd).toBeCloseTo(expected.costUsd, 12);
      expect(trial.trace.steps!.filter((s) => s.usage).map((s) => s.model)).toEqual(Array(3).fill(`openai:${SERVED_MODEL}`));
      expect(warnings.filter((w) => /usage|unpriced|price/i.test(w))).toEqual([]);
      if (target.includes('fetch')) expect(trial.reply).toBe('Refunded $42.50 for order A1001.');
      // Streamed targets really streamed (and asked for the usage chunk).
      expect(fake.bodies.every((b) => (b.stream === true) === target.endsWith('stream') && (b.stream !== true || b.stream_options?.include_usage === true))).toBe(true);
    });
  }

  it('counts each call once when the adapter and ctx.fetch both report it', async () => {
    const { results, warnings } = await runExample({ target: 'ai-sdk-both', filter: refundOnly });
    const trial = caseOf(results, 'refund-delivered-order').trials[0]!;
    const expected = servedFor(prompt);
    expect(trial.usage.target).toMatchObject({ calls: 3, inputTokens: expected.inputTokens, outputTokens: expected.outputTokens, cachedInputTokens: expected.cachedInputTokens });
    expect(trial.usage.target.costUsd).toBeCloseTo(expected.costUsd, 12);
    // The adapter's tool calls are kept beside the recorded usage.
    expect(trial.trace.steps!.flatMap((s) => s.toolCalls ?? []).map((c) => c.name)).toEqual(['orders_lookup', 'refunds_issue']);
    expect(warnings.some((w) => w.includes('already recorded (3 calls with the same tokens): each call is counted once'))).toBe(true);
  });
});
