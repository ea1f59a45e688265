/**
 * `openai` 7 in a user's project, measured through `ctx.fetch('openai')`: a function target builds the
 * user's own client (not agent-evals' openai 6) with that fetch, and the run reads its tool calls and
 * usage off the wire. The user's openai is the one the newest line links at examples/node_modules/openai
 * (lines/newest.json `links`: the copy @openai/agents 0.20 installs, so no second pin to keep in step);
 * agent-evals' own openai 6 keeps node_modules/openai, as it keeps its nested copy in a user's project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetFunction } from '../../src/targets/function-target.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, FakeUsage, Scripted } from '../support/fake-server.js';
import { onNewestLine, userOpenAI, userOpenAIVersion } from '../support/framework-line.js';
import { caseOf } from '../support/results-helpers.js';
import { runInProcess, type InProcessRun } from '../support/run-in-process.js';
import { chatAgent, refundScript, responsesAgent } from '../support/raw-sdk-agents.js';

const userMajor = Number(userOpenAIVersion.split('.')[0]);

/** Each of the three model calls of a refund served with its own usage, so sums are checked exactly. */
const USAGE: FakeUsage[] = [
  { input: 120, output: 12, cached: 100 },
  { input: 180, output: 15 },
  { input: 240, output: 20, cached: 64 },
];

function script(body: any): Scripted {
  const reply = refundScript(body);
  const called = 'toolCalls' in reply ? reply.toolCalls?.[0]?.name : undefined;
  const turn = called === 'orders_lookup' ? 0 : called === 'refunds_issue' ? 1 : 2;
  return { ...reply, usage: USAGE[turn]! };
}

// The newest line only: on the previous line the user's openai is agent-evals' own 6 (raw-sdk-trajectory.test.ts).
describe.runIf(onNewestLine)(`openai ${userOpenAIVersion} in the user's project, measured only through ctx.fetch('openai')`, () => {
  let fake: FakeProvider;
  let run: InProcessRun;
  const targetNames = ['chat', 'chat-stream', 'responses', 'responses-stream'];

  beforeAll(async () => {
    fake = await startFakeOpenAI({ script, apiKey: 'sk-user' });
    const OpenAI = await userOpenAI();
    const client = (fetch: typeof globalThis.fetch) => new OpenAI({ apiKey: 'sk-user', baseURL: fake.url, fetch, maxRetries: 0 });
    const targets: Record<string, TargetFunction> = {
      chat: (input, ctx) => chatAgent(input, client(ctx.fetch('openai')), false),
      'chat-stream': (input, ctx) => chatAgent(input, client(ctx.fetch('openai')), true),
      responses: (input, ctx) => responsesAgent(input, client(ctx.fetch('openai')), false),
      'responses-stream': (input, ctx) => responsesAgent(input, client(ctx.fetch('openai')), true),
    };
    const files = Object.fromEntries(
      targetNames.map((t) => [
        `evals/${t}.eval.yaml`,
        `suite: ${t}
target: ${t}
cases:
  - id: refund
    input: Please refund order A1.
    assert:
      - { type: calledTool, tool: refunds_issue, args: { orderId: A1 }, times: 1 }
      - { type: toolOrder, tools: [orders_lookup, refunds_issue] }
`,
      ]),
    );
    run = await runInProcess({ files, config: { trace: 'full', targets } });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it("sends every request with the user's openai 7 client", () => {
    expect(userMajor).toBe(7);
    expect(fake.requests).toHaveLength(12);
    expect(new Set(fake.requests.map((r) => r.headers['x-stainless-package-version']))).toEqual(new Set([userOpenAIVersion]));
    expect(fake.requests.map((r) => r.path).sort()).toEqual([...Array<string>(6).fill('/v1/chat/completions'), ...Array<string>(6).fill('/v1/responses')]);
  });

  it.each(targetNames)('%s: passes the trajectory assertions on the tool calls read off the wire, each with its args and result', (target) => {
    const trial = caseOf(run.results, `${target}/refund`).trials[0]!;
    expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['calledTool', 'passed'],
      ['toolOrder', 'passed'],
    ]);
    expect(trial.trace.steps!.flatMap((s) => s.toolCalls ?? [])).toEqual([
      { name: 'orders_lookup', args: { orderId: 'A1' }, result: { orderId: 'A1', status: 'delivered' }, isError: false },
      { name: 'refunds_issue', args: { orderId: 'A1' }, result: { refundId: 'R-A1' }, isError: false },
    ]);
    expect(trial.reply).toBe('Done with order A1.');
  });

  it.each(targetNames)('%s: reports exactly the usage and cost the fake served, one step per model call', (target) => {
    const trial = caseOf(run.results, `${target}/refund`).trials[0]!;
    const sum = (f: (u: FakeUsage) => number | undefined) => USAGE.reduce((n, u) => n + (f(u) ?? 0), 0);
    const [input, cached, output] = [sum((u) => u.input), sum((u) => u.cached), sum((u) => u.output)];
    expect(trial.usage.target).toMatchObject({ calls: 3, inputTokens: input, cachedInputTokens: cached, outputTokens: output });
    // gpt-4.1-mini: $0.40 / M input, $0.10 / M cached input, $1.60 / M output.
    expect(trial.usage.target.costUsd).toBeCloseTo(((input - cached) * 0.4 + cached * 0.1 + output * 1.6) / 1e6, 12);
    expect(trial.trace.steps!.map((s) => s.usage && [s.usage.inputTokens, s.usage.outputTokens])).toEqual(USAGE.map((u) => [u.input, u.output]));
  });
});
