/**
 * Agents written on the plain SDKs, measured only through `ctx.fetch(provider)`: the real runner,
 * the real `openai` and `@anthropic-ai/sdk` clients, the fake servers. Their tool calls are read
 * off the responses and their results off the next requests, so the trajectory assertions check
 * what the agent did; a function target that records no trajectory fails them saying so.
 */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import type { FakeProvider } from '../support/fake-server.js';
import { caseOf } from '../support/results-helpers.js';
import { runInProcess, type InProcessRun } from '../support/run-in-process.js';
import { anthropicAgent, chatAgent, refundScript, responsesAgent } from '../support/raw-sdk-agents.js';

let openai: FakeProvider;
let anthropic: FakeProvider;
let run: InProcessRun;

const openaiClient = (fetch: typeof globalThis.fetch) => new OpenAI({ apiKey: 'sk-raw', baseURL: openai.url, fetch, maxRetries: 0 });

/** Each target hands only `ctx.fetch` to the SDK client it builds: no adapter, no ctx.tool. */
const targets: Record<string, TargetFunction> = {
  chat: (input, ctx) => chatAgent(input, openaiClient(ctx.fetch('openai')), false),
  'chat-stream': (input, ctx) => chatAgent(input, openaiClient(ctx.fetch('openai')), true),
  responses: (input, ctx) => responsesAgent(input, openaiClient(ctx.fetch('openai')), false),
  'responses-stream': (input, ctx) => responsesAgent(input, openaiClient(ctx.fetch('openai')), true),
  anthropic: (input, ctx) => anthropicAgent(input, new Anthropic({ apiKey: 'sk-ant-raw', baseURL: anthropic.url, fetch: ctx.fetch('anthropic'), maxRetries: 0 })),
  plain: async (input) => `You asked: ${input}`,
};
const agents = Object.keys(targets).filter((t) => t !== 'plain');

const suite = (target: string) => `suite: ${target}
target: ${target}
cases:
  - id: refund-delivered
    input: Please refund order A1.
    assert:
      - { type: calledTool, tool: orders_lookup, args: { orderId: A1 }, times: 1 }
      - { type: calledTool, tool: refunds_issue, args: { orderId: A1 }, times: 1 }
      - { type: toolOrder, tools: [orders_lookup, refunds_issue] }
      - { type: toolSequence, tools: [orders_lookup, refunds_issue] }
      - { type: noToolErrors }
  - id: refund-refused
    input: Please refund order B2.
    assert:
      - { type: calledTool, tool: refunds_issue, args: { orderId: B2 } }
      - { type: noToolErrors }
`;

beforeAll(async () => {
  openai = await startFakeOpenAI({ script: refundScript, apiKey: 'sk-raw' });
  anthropic = await startFakeAnthropic({ script: refundScript, apiKey: 'sk-ant-raw' });
  const files = Object.fromEntries(Object.keys(targets).map((t) => [`evals/${t}.eval.yaml`, suite(t)]));
  // The tests read the recorded tool data back from the results: `full` keeps it raw there.
  run = await runInProcess({ files, config: { trace: 'full', targets } });
});
afterAll(async () => {
  await Promise.all([openai?.close(), anthropic?.close()]);
});

const trialOf = (target: string, id: string) => caseOf(run.results, `${target}/${id}`).trials[0]!;
const statuses = (target: string, id: string) => trialOf(target, id).assertions.map((a) => [a.kind, a.status]);

describe.each(agents)('a plain SDK agent measured only through ctx.fetch (%s)', (target) => {
  it('passes calledTool with args, toolOrder, toolSequence and noToolErrors on the tools it called', () => {
    expect(statuses(target, 'refund-delivered')).toEqual([
      ['calledTool', 'passed'],
      ['calledTool', 'passed'],
      ['toolOrder', 'passed'],
      ['toolSequence', 'passed'],
      ['noToolErrors', 'passed'],
    ]);
  });

  it('records each call with its args and the result the next request sent back', () => {
    const calls = trialOf(target, 'refund-delivered').trace.steps!.flatMap((s) => s.toolCalls ?? []);
    expect(calls).toEqual([
      { name: 'orders_lookup', args: { orderId: 'A1' }, result: { orderId: 'A1', status: 'delivered' }, isError: false },
      { name: 'refunds_issue', args: { orderId: 'A1' }, result: { refundId: 'R-A1' }, isError: false },
    ]);
  });

  it('fails noToolErrors when a tool result was an error', () => {
    const trial = trialOf(target, 'refund-refused');
    expect(statuses(target, 'refund-refused')).toEqual([
      ['calledTool', 'passed'],
      ['noToolErrors', 'failed'],
    ]);
    expect(trial.assertions[1]!.message).toBe('noToolErrors: 1 of 2 tool calls errored [refunds_issue]');
    expect(trial.trace.steps!.flatMap((s) => s.toolCalls ?? []).find((c) => c.name === 'refunds_issue')).toMatchObject({
      isError: true,
      result: expect.stringContaining('order B2 is not delivered yet'),
    });
  });

  it('keeps usage as before: one priced step per model call, each holding the tool calls its response asked for', () => {
    const trial = trialOf(target, 'refund-delivered');
    expect(trial.usage.target).toMatchObject({ calls: 3, inputTokens: 30, outputTokens: 15 });
    expect(trial.trace.steps!.map((s) => [Boolean(s.usage), (s.toolCalls ?? []).map((c) => c.name)])).toEqual([
      [true, ['orders_lookup']],
      [true, ['refunds_issue']],
      [true, []],
    ]);
  });
});

describe('a function target that records no trajectory', () => {
  it('fails every trajectory assertion saying it recorded no tool calls, not "called 0 times"', () => {
    const trial = trialOf('plain', 'refund-delivered');
    expect(trial.assertions.map((a) => a.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    expect(trial.assertions[0]!.message).toBe(
      'calledTool orders_lookup with {"orderId":"A1"}: target "plain" recorded no tool calls: use ctx.fetch, ctx.tool or an adapter (a command or HTTP target reports them as steps)',
    );
    expect(trial.assertions[4]!.message).toContain('noToolErrors: target "plain" recorded no tool calls');
    expect(run.exitCode).toBe(1);
  });
});
