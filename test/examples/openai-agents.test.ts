/**
 * The OpenAI Agents SDK example (examples/frameworks/openai-agents) run in-process against the fake
 * OpenAI server's Responses API, with the real SDK: through the adapter (tool calls, a throwing
 * tool's error via the tracing processor, usage and cost) and with only ctx.fetch (usage, cost and tool calls).
 * `trace: 'full'`: the tool calls are read back from the results, which digest them under `safe`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setDefaultOpenAITracingExporter, setTraceProcessors, setTracingDisabled } from '@openai/agents';
import config, { tracing } from '../../examples/frameworks/openai-agents/evals.config.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { toolOutputsSent } from '../support/fake-openai-responses.js';
import type { FakeProvider, FakeToolCall, FakeUsage, Scripted } from '../support/fake-server.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';
import { onNewestLine, userOpenAIVersion } from '../support/framework-line.js';
import type { CaseResult } from '../../src/core/results-schema.js';

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), '../../examples/frameworks/openai-agents');
const MODEL = 'gpt-4.1-mini-2025-04-14';

/** What the fake serves per case: the model's replies in order, each with its usage. */
const SCRIPTS: Record<string, Array<{ reply: { toolCalls: FakeToolCall[] } | { text: string }; usage: FakeUsage }>> = {
  A1049_refund: [
    { reply: { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' } }] }, usage: { input: 120, output: 12, cached: 100 } },
    { reply: { toolCalls: [{ name: 'refunds_issue', args: { orderId: 'A1049' } }] }, usage: { input: 180, output: 15 } },
    { reply: { text: 'Refunded $42.00 to your card (R-A1049).' }, usage: { input: 240, output: 20 } },
  ],
  A1049_status: [
    { reply: { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' } }] }, usage: { input: 110, output: 10 } },
    { reply: { text: 'Order A1049 was delivered.' }, usage: { input: 160, output: 25, cached: 64 } },
  ],
  A0990_refund: [
    { reply: { toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A0990' } }] }, usage: { input: 130, output: 11 } },
    { reply: { toolCalls: [{ name: 'refunds_issue', args: { orderId: 'A0990' } }] }, usage: { input: 190, output: 13 } },
    { reply: { text: 'Sorry: A0990 is outside the 30-day refund window.' }, usage: { input: 260, output: 30, reasoning: 7 } },
  ],
};

function scriptFor(body: any): string {
  const first = body.input[0].content as string;
  const order = /A\d{4}/.exec(first)![0];
  return `${order}_${/refund/i.test(first) ? 'refund' : 'status'}`;
}

/** Answers each request from its case's script, by how many tool outputs the request already holds. */
function script(body: any): Scripted {
  const turn = (body.input as Array<{ type?: string }>).filter((i) => i.type === 'function_call_output').length;
  const { reply, usage } = SCRIPTS[scriptFor(body)]![turn]!;
  return { ...reply, usage, model: MODEL };
}

function served(key: string) {
  const usages = SCRIPTS[key]!.map((s) => s.usage);
  const sum = (f: (u: FakeUsage) => number | undefined) => usages.reduce((n, u) => n + (f(u) ?? 0), 0);
  const cached = sum((u) => u.cached);
  const input = sum((u) => u.input);
  const output = sum((u) => u.output);
  // gpt-4.1-mini: $0.40 / M input, $0.10 / M cached input, $1.60 / M output.
  const costUsd = ((input - cached) * 0.4 + cached * 0.1 + output * 1.6) / 1e6;
  return { calls: usages.length, inputTokens: input, outputTokens: output, cachedInputTokens: cached, reasoningTokens: sum((u) => u.reasoning), costUsd };
}

function expectUsage(c: CaseResult, key: string) {
  const { costUsd, ...tokens } = served(key);
  const usage = c.trials[0]!.usage.target;
  expect(usage).toMatchObject(tokens);
  expect(usage.costUsd).toBeCloseTo(costUsd, 12);
}

let fake: FakeProvider;
beforeAll(() => {
  // The SDK turns tracing off when NODE_ENV is `test`; only our processor runs (no exporter, no network).
  setTraceProcessors([tracing]);
  setTracingDisabled(false);
});
afterEach(async () => {
  await fake?.close();
  vi.unstubAllEnvs();
});
afterAll(async () => {
  tracing.dispose();
  // What importing the SDK set up, under NODE_ENV=test: its default exporter, tracing off.
  setDefaultOpenAITracingExporter();
  setTracingDisabled(true);
  removeTempDirs();
});

async function startFake(hold?: (index: number) => Promise<void>) {
  fake = await startFakeOpenAI({ script, hold });
  vi.stubEnv('OPENAI_API_KEY', 'sk-fake-example');
  vi.stubEnv('OPENAI_BASE_URL', fake.url);
}

describe('examples/frameworks/openai-agents', () => {
  it('passes the tool assertions through the adapter, records the throwing tool as an error, and prices what the fake served', async () => {
    // The three cases' first requests are held until all three arrived: their runs overlap.
    let release!: () => void;
    const together = new Promise<void>((r) => (release = r));
    await startFake(async (index) => {
      if (index === 2) release();
      if (index < 3) await together;
    });

    const { results, exitCode } = await runInProcess({ dir: exampleDir, config: { ...config, trace: 'full', outputDir: tempDir() }, paths: ['support.eval.yaml'] });

    expect(fake.requests.every((r) => r.path === '/v1/responses')).toBe(true);
    const byId = Object.fromEntries(results.cases.map((c) => [c.id, c]));
    for (const c of results.cases) expect(c.trials[0]!.assertions.filter((a) => a.status !== 'passed')).toEqual([]);
    expect(exitCode).toBe(0);
    expect(byId['refund-verified']!.trials[0]!.assertions.map((a) => a.kind)).toEqual(['calledTool', 'calledTool', 'toolOrder', 'noToolErrors', 'contains']);
    expect(byId['order-status']!.trials[0]!.assertions.map((a) => a.kind)).toEqual(['calledTool', 'notCalledTool', 'noToolErrors']);

    // The example's client is the user's own openai: 7 on the newest line, beside agent-evals' 6.
    expect(userOpenAIVersion.split('.')[0]).toBe(onNewestLine ? '7' : '6');
    expect(new Set(fake.requests.map((r) => r.headers['x-stainless-package-version']))).toEqual(new Set([userOpenAIVersion]));

    // The refund tool threw for A0990 only: the SDK's result holds just the text the model saw, the
    // reason its errorFunction approved (0.20's default would show a fixed text without it).
    const calls = (id: string) => byId[id]!.trials[0]!.trace.steps!.flatMap((s) => s.toolCalls ?? []);
    expect(calls('outside-refund-window').map((c) => [c.name, c.isError])).toEqual([
      ['orders_lookup', undefined],
      ['refunds_issue', true],
    ]);
    const refusal = 'Refund refused: order A0990 is outside the 30-day refund window';
    expect(calls('outside-refund-window')[1]!.result).toBe(refusal);
    expect(toolOutputsSent(fake.bodies)).toContain(refusal);
    expect(calls('refund-verified').map((c) => [c.name, c.isError])).toEqual([
      ['orders_lookup', undefined],
      ['refunds_issue', undefined],
    ]);
    expect(calls('refund-verified')[1]!.result).toEqual({ refundId: 'R-A1049', amount: '$42.00' });

    expectUsage(byId['refund-verified']!, 'A1049_refund');
    expectUsage(byId['order-status']!, 'A1049_status');
    expectUsage(byId['outside-refund-window']!, 'A0990_refund');
    expect(byId['outside-refund-window']!.trials[0]!.trace.steps!.map((s) => s.model)).toEqual([`openai:${MODEL}`, `openai:${MODEL}`, `openai:${MODEL}`]);
  });

  it('reports exact usage and cost with only ctx.fetch on the agent client and no adapter', async () => {
    await startFake();
    const { results, exitCode } = await runInProcess({ dir: exampleDir, config: { ...config, trace: 'full', outputDir: tempDir() }, paths: ['fetch.eval.yaml'] });
    expect(exitCode).toBe(0);
    const [c] = results.cases;
    expect(c!.trials[0]!.reply).toBe('Refunded $42.00 to your card (R-A1049).');
    expect(new Set(fake.requests.map((r) => r.headers['x-stainless-package-version']))).toEqual(new Set([userOpenAIVersion]));
    expectUsage(c!, 'A1049_refund');
    // The tool calls were read off the Responses API's wire.
    expect(c!.trials[0]!.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['calledTool', 'passed'],
      ['toolOrder', 'passed'],
      ['contains', 'passed'],
    ]);
  });
});
