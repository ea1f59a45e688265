/**
 * `{ function: agent, otel: true }`: a real AI SDK agent with telemetry on, against the fake OpenAI
 * server, through the real runner; its tool calls and usage come from its spans alone. Runs use
 * `trace: 'full'`: the tool calls are read back from the results, which digest them under `safe`.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { context, propagation, ROOT_CONTEXT, trace, type ContextManager } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider } from '../support/fake-server.js';
import { runInProcess } from '../support/run-in-process.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { removeTempDirs } from '../support/cli.js';
import { expectStoppedBeforeTargets, runMarked, writeProject } from '../support/temp-project.js';
import { onNewestLine } from '../support/framework-line.js';
import { expectedTrial, orderScript, runOrderAgent } from '../support/ai-sdk-order-agent.js';
import { priceUsage } from '../../src/providers/pricing.js';
import { otelSpanProcessor } from '../../src/index.js';
import type { TargetFunction } from '../../src/targets/function-target.js';
import type { TrialResult } from '../../src/core/results-schema.js';
import { fromAISDK } from '../../src/adapters/ai-sdk.js';
import type { AgentRun } from '../../src/core/agent-run.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await fake?.close();
  fake = undefined;
  // Other test files share this worker: no OpenTelemetry global may outlive a test.
  trace.disable();
  context.disable();
  propagation.disable();
});
afterAll(removeTempDirs);

const TRIALS = 8;
const evalFile = {
  'evals/orders.eval.yaml':
    'suite: orders\ntarget: agent\ncases:\n  - id: where\n    input: Where is my order?\n    assert:\n      - { type: calledTool, tool: lookup_order }\n      - { type: toolOrder, tools: [lookup_order, refund] }\n      - { type: notCalledTool, tool: cancel_order }\n',
};

/** The fake holds the first `TRIALS` requests until all have arrived: every trial is in flight at once. */
async function startFake() {
  let arrived = 0;
  let allIn!: () => void;
  const together = new Promise<void>((resolve) => (allIn = resolve));
  fake = await startFakeOpenAI({
    script: orderScript,
    hold: (index) => {
      if (++arrived === TRIALS) allIn();
      return index < TRIALS ? together : Promise.resolve();
    },
  });
  return fake;
}

function agentFor(url: string): TargetFunction {
  // The plain reply: everything else comes from the spans.
  return async (input, ctx) => (await runOrderAgent(url, input, ctx.trial.trial, { abortSignal: ctx.signal })).text;
}

function expectOwnSpans(trial: TrialResult) {
  const want = expectedTrial(trial.index);
  expect(trial.error).toBeUndefined();
  expect(trial.reply).toBe(want.reply);
  const calls = (trial.trace.steps ?? []).flatMap((s) => s.toolCalls ?? []);
  expect(calls.map(({ durationMs: _d, ...c }) => c)).toEqual(want.toolCalls);
  for (const c of calls) expect(c.durationMs).toBeGreaterThanOrEqual(0);
  const modelSteps = (trial.trace.steps ?? []).filter((s) => s.usage);
  // Zero counts may be written out or left off (ctx.fetch writes them, the spans leave them off).
  const counts = (u: object | undefined) => ({ cachedInputTokens: 0, reasoningTokens: 0, ...u });
  expect(modelSteps.map((s) => counts(s.usage))).toEqual(want.calls.map(counts));
  expect(modelSteps.map((s) => s.model)).toEqual([want.model, want.model]);
  const tokens = (key: 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'reasoningTokens') => want.calls.reduce((n, c) => n + ((c as Record<string, number>)[key] ?? 0), 0);
  expect(trial.usage.target).toMatchObject({
    calls: 2,
    inputTokens: tokens('inputTokens'),
    outputTokens: tokens('outputTokens'),
    cachedInputTokens: tokens('cachedInputTokens'),
    reasoningTokens: tokens('reasoningTokens'),
  });
  const cost = want.calls.reduce((n, c) => n + priceUsage(want.model, c)!, 0);
  expect(trial.usage.target.costUsd).toBeCloseTo(cost, 12);
}

describe('otel: true on a function target', () => {
  it('builds each of 8 concurrent trials from its own spans: tool calls with args, results and errors, usage as served', async () => {
    const fake = await startFake();
    const { results, exitCode, warnings } = await runInProcess({
      files: evalFile,
      config: { trace: 'full', targets: { agent: { function: agentFor(fake.url), otel: true } }, concurrency: TRIALS, earlyStop: false },
      selection: { repeat: TRIALS },
    });
    expect(fake.maxInFlight).toBe(TRIALS);
    expect(exitCode).toBe(0);
    expect(warnings).toEqual([]);
    const trials = results.cases[0]!.trials;
    expect(trials.map((t) => t.index).sort()).toEqual([...Array(TRIALS).keys()]);
    for (const trial of trials) {
      expectOwnSpans(trial);
      expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual([
        ['calledTool', 'passed'],
        ['toolOrder', 'passed'],
        ['notCalledTool', 'passed'],
      ]);
    }
    // Nothing registered for the run is left behind: a provider of the user's can still be set.
    expect(trace.setGlobalTracerProvider(new BasicTracerProvider())).toBe(true);
  });

  it('gives the same tool calls, usage and model as fromAISDK reading the very same results, 8 trials at once', async () => {
    const fake = await startFake();
    const served = new Map<number, Awaited<ReturnType<typeof runOrderAgent>>>();
    const agent: TargetFunction = async (input, ctx) => {
      const result = await runOrderAgent(fake.url, input, ctx.trial.trial, { abortSignal: ctx.signal });
      served.set(ctx.trial.trial, result);
      return result.text;
    };
    const { results, exitCode } = await runInProcess({
      files: evalFile,
      config: { trace: 'full', targets: { agent: { function: agent, otel: true } }, concurrency: TRIALS, earlyStop: false },
      selection: { repeat: TRIALS },
    });
    expect(exitCode).toBe(0);
    expect(fake.maxInFlight).toBe(TRIALS);
    // Durations differ by source (span vs none); zero counts may be written out or left off.
    const view = (run: Pick<AgentRun, 'steps'>) => ({
      toolCalls: (run.steps ?? []).flatMap((s) => s.toolCalls ?? []).map((c) => ({ name: c.name, args: c.args, result: c.result, isError: c.isError === true })),
      calls: (run.steps ?? []).filter((s) => s.usage).map((s) => ({ model: s.model, usage: { cachedInputTokens: 0, reasoningTokens: 0, ...s.usage } })),
    });
    const trials = results.cases[0]!.trials;
    expect(trials).toHaveLength(TRIALS);
    for (const trial of trials) {
      const adapted = fromAISDK(served.get(trial.index)!);
      expect(view(trial.trace)).toEqual(view(adapted));
      expect(view(trial.trace).toolCalls).toHaveLength(2);
    }
  });

  it('without otel the same agent records no tool calls or usage (the spans are the only source)', async () => {
    const fake = await startFake();
    const { results } = await runInProcess({
      files: evalFile,
      config: { trace: 'full', targets: { agent: { function: agentFor(fake.url) } }, concurrency: TRIALS, earlyStop: false },
      selection: { repeat: TRIALS },
    });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.trace.steps ?? []).toEqual([]);
    expect(trial.usage.target.calls).toBe(0);
  });

  it('counts a call both its span and ctx.fetch recorded once, with a warning', async () => {
    const fake = await startFake();
    const agent: TargetFunction = async (input, ctx) => (await runOrderAgent(fake.url, input, ctx.trial.trial, { abortSignal: ctx.signal, fetch: ctx.fetch('openai') })).text;
    const { results, exitCode, warnings } = await runInProcess({
      files: evalFile,
      config: { trace: 'full', targets: { agent: { function: agent, otel: true } }, concurrency: TRIALS, earlyStop: false },
      selection: { repeat: TRIALS },
    });
    expect(exitCode).toBe(0);
    for (const trial of results.cases[0]!.trials) expectOwnSpans(trial);
    expect(warnings).toEqual([expect.stringMatching(/^target "agent" returned usage that .* already recorded \(2 calls with the same tokens\): each call is counted once$/)]);
  });

  it("reads each turn of a conversation from that turn's spans", async () => {
    fake = await startFakeOpenAI({ script: orderScript });
    const yaml =
      'suite: orders\ntarget: agent\ncases:\n  - id: twice\n    turns:\n      - input: Where is my order?\n      - input: Check it again please.\n    assert:\n      - { type: calledTool, tool: lookup_order, times: 2 }\n';
    const { results } = await runInProcess({ files: { 'evals/orders.eval.yaml': yaml }, config: { trace: 'full', targets: { agent: { function: agentFor(fake.url), otel: true } } } });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toBeUndefined();
    const want = expectedTrial(0);
    expect(trial.turns?.map((t) => [t.toolCalls.map((c) => `${c.name}:${String(c.isError)}`), t.usage.calls, t.usage.inputTokens])).toEqual([
      [['lookup_order:false', 'refund:true'], 2, want.calls[0]!.inputTokens + want.calls[1]!.inputTokens],
      [['lookup_order:false', 'refund:true'], 2, want.calls[0]!.inputTokens + want.calls[1]!.inputTokens],
    ]);
    expect(trial.usage.target.calls).toBe(4);
    expect(trial.verdict).toBe('passed');
  });

  it("reads the spans through the user's own tracer provider when otelSpanProcessor() is on it, and leaves that provider in place", async () => {
    const fake = await startFake();
    const exporter = new InMemorySpanExporter();
    expect(trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), otelSpanProcessor()] }))).toBe(true);
    const { results, exitCode } = await runInProcess({
      files: evalFile,
      config: { trace: 'full', targets: { agent: { function: agentFor(fake.url), otel: true } }, concurrency: TRIALS, earlyStop: false },
      selection: { repeat: TRIALS },
    });
    expect(exitCode).toBe(0);
    for (const trial of results.cases[0]!.trials) expectOwnSpans(trial);
    // The user's exporter saw the agent's spans too: their provider stayed the global one.
    // AI SDK 6 names its tool spans ai.toolCall; AI SDK 7's @ai-sdk/otel, execute_tool <name>.
    expect(exporter.getFinishedSpans().filter((s) => s.name === 'ai.toolCall' || s.attributes['gen_ai.operation.name'] === 'execute_tool')).toHaveLength(2 * TRIALS);
  });

  it("stops before any trial when the user's own tracer provider does not carry otelSpanProcessor()", async () => {
    fake = await startFakeOpenAI({ script: orderScript });
    expect(trace.setGlobalTracerProvider(new BasicTracerProvider())).toBe(true);
    const run = runInProcess({ files: evalFile, config: { trace: 'full', targets: { agent: { function: agentFor(fake.url), otel: true } } } });
    await expect(run).rejects.toThrow(/evals\.config\.ts: targets\.agent\.otel: otel: true: another OpenTelemetry tracer provider is registered.*otelSpanProcessor\(\)/);
    expect(fake.count).toBe(0);
  });

  it("stops before any trial when the process's context manager loses the active span across await", async () => {
    fake = await startFakeOpenAI({ script: orderScript });
    // A context manager that never changes the active context.
    const forgetful: ContextManager = {
      active: () => ROOT_CONTEXT,
      with: (_ctx, fn, thisArg, ...args) => fn.call(thisArg, ...args),
      bind: (_ctx, target) => target,
      enable: () => forgetful,
      disable: () => forgetful,
    };
    expect(context.setGlobalContextManager(forgetful)).toBe(true);
    const run = runInProcess({ files: evalFile, config: { trace: 'full', targets: { agent: { function: agentFor(fake.url), otel: true } } } });
    await expect(run).rejects.toThrow(/evals\.config\.ts: targets\.agent\.otel: otel: true: the OpenTelemetry context manager registered in this process does not keep the active span across `await`/);
    expect(fake.count).toBe(0);
  });

  it('keeps what the spans showed when the trial times out: finished tool calls, and the unanswered call as sent with unknown usage', async () => {
    // The first request is answered, the second never is: the trial ends on its timeout, on a faked
    // clock that the test runs out once the second request has arrived (however long the first took).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const hang = () => {
      setImmediate(() => {
        vi.advanceTimersByTime(2000);
        vi.useRealTimers();
      });
      return new Promise<void>(() => {});
    };
    fake = await startFakeOpenAI({ script: orderScript, hold: (index) => (index === 0 ? Promise.resolve() : hang()) });
    const timedOut = evalFile['evals/orders.eval.yaml'].replace('    input: Where is my order?\n', '    input: Where is my order?\n    timeoutMs: 2000\n');
    const { results } = await runInProcess({ files: { 'evals/orders.eval.yaml': timedOut }, config: { trace: 'full', targets: { agent: { function: agentFor(fake.url), otel: true } } } });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toMatch(/timed out/i);
    const want = expectedTrial(0);
    expect(trial.trace.steps?.flatMap((s) => s.toolCalls ?? []).map(({ durationMs: _d, ...c }) => c)).toEqual(want.toolCalls);
    expect(trial.trace.steps?.filter((s) => s.usage || s.usageUnknown).map(({ usage, usageUnknown, model }) => ({ usage, usageUnknown, model }))).toEqual([
      { usage: want.calls[0], usageUnknown: undefined, model: want.model },
      { usage: undefined, usageUnknown: true, model: want.model },
    ]);
    expect(trial.usage.target).toMatchObject({ calls: 2, inputTokens: want.calls[0]!.inputTokens, costUsd: null });
    expect(fake.count).toBe(2);
  });

  it('keeps the spans of a trial whose agent throws: the answered call and the tool calls, not the refused call', async () => {
    // The second request of the trial is refused (a 400 is not retried): generateText throws.
    fake = await startFakeOpenAI({ script: (body, index) => (index === 0 ? orderScript(body) : { status: 400, message: 'context too long' }) });
    const { results } = await runInProcess({ files: evalFile, config: { trace: 'full', targets: { agent: { function: agentFor(fake.url), otel: true } } } });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toMatch(/context too long/);
    const want = expectedTrial(0);
    expect(trial.trace.steps?.flatMap((s) => s.toolCalls ?? []).map(({ durationMs: _d, ...c }) => c)).toEqual(want.toolCalls);
    expect(trial.usage.target).toMatchObject({ calls: 1, inputTokens: want.calls[0]!.inputTokens, outputTokens: want.calls[0]!.outputTokens });
  });
});

describe('otel: true on a trace without a model call', () => {
  it('is a trial error naming what is missing, never a verdict on an empty trajectory', async () => {
    const fake = await startFake();
    // The agent really calls the model, with its telemetry off: no span reaches the trial's root.
    const agent: TargetFunction = async (input, ctx) => (await runOrderAgent(fake.url, input, ctx.trial.trial, { abortSignal: ctx.signal, telemetry: false })).text;
    const { results, exitCode } = await runInProcess({
      files: evalFile,
      config: { trace: 'full', targets: { agent: { function: agent, otel: true } }, concurrency: TRIALS, earlyStop: false },
      selection: { repeat: TRIALS },
    });
    expect(fake.count).toBe(2 * TRIALS);
    for (const trial of results.cases[0]!.trials) {
      expect(trial.verdict).toBe('failed');
      expect(trial.error).toMatch(
        /^target agent: otel: true: this trial's trace holds no span, so its tool calls and usage are unknown\. .*experimental_telemetry.*@ai-sdk\/otel.*\{ reply, steps: \[\] \}/,
      );
      // No assertion is graded on the unknown trajectory.
      expect(trial.assertions).toEqual([]);
    }
    expect(results.cases[0]!.verdict).toBe('failed');
    expect(exitCode).not.toBe(0);
  });

  it('is no error when the function returns its run with a step list of its own (it answered without a model call)', async () => {
    const { results } = await runInProcess({ files: evalFile, config: { trace: 'full', targets: { agent: { function: () => ({ reply: 'Nothing to look up.', steps: [] }), otel: true } } } });
    const trial = results.cases[0]!.trials[0]!;
    expect(trial.error).toBeUndefined();
    expect(trial.assertions.map((a) => [a.kind, a.status])).toEqual([
      ['calledTool', 'failed'],
      ['toolOrder', 'failed'],
      ['notCalledTool', 'passed'],
    ]);
  });
});

/** AI SDK 7's telemetry registry (registerTelemetry() pushes onto it). */
const registry = () => (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: object[] }).AI_SDK_TELEMETRY_INTEGRATIONS;
// A variable, so the previous line (no @ai-sdk/otel, ai 6 types) type-checks these imports.
const AI = 'ai';
const AI_SDK_OTEL = '@ai-sdk/otel';

describe.runIf(onNewestLine)('otel: true on AI SDK 7', () => {
  it("registers @ai-sdk/otel's integration while the trials run and removes it after", async () => {
    const fake = await startFake();
    const before = registry() && [...registry()!];
    const seen = new Set<string>();
    const agent: TargetFunction = async (input, ctx) => {
      for (const i of registry() ?? []) seen.add(i.constructor.name);
      return (await runOrderAgent(fake.url, input, ctx.trial.trial, { abortSignal: ctx.signal })).text;
    };
    const { results, exitCode } = await runInProcess({
      files: evalFile,
      config: { trace: 'full', targets: { agent: { function: agent, otel: true } }, concurrency: TRIALS, earlyStop: false },
      selection: { repeat: TRIALS },
    });
    expect(exitCode).toBe(0);
    for (const trial of results.cases[0]!.trials) expectOwnSpans(trial);
    expect([...seen]).toEqual(['OpenTelemetry']);
    expect(registry()).toEqual(before);
  });

  it('uses an OpenTelemetry integration the process registered instead of adding its own: each call counted once', async () => {
    const fake = await startFake();
    const { OpenTelemetry } = (await import(AI_SDK_OTEL)) as { OpenTelemetry: new (o?: { usage?: boolean }) => object };
    const { registerTelemetry } = (await import(AI)) as { registerTelemetry: (...i: object[]) => void };
    const mine = new OpenTelemetry({ usage: true });
    const before = registry();
    registerTelemetry(mine);
    try {
      let during: object[] = [];
      const agent: TargetFunction = async (input, ctx) => {
        during = [...(registry() ?? [])];
        return (await runOrderAgent(fake.url, input, ctx.trial.trial, { abortSignal: ctx.signal })).text;
      };
      const { results, exitCode } = await runInProcess({
        files: evalFile,
        config: { trace: 'full', targets: { agent: { function: agent, otel: true } }, concurrency: TRIALS, earlyStop: false },
        selection: { repeat: TRIALS },
      });
      expect(exitCode).toBe(0);
      for (const trial of results.cases[0]!.trials) expectOwnSpans(trial);
      expect(during).toEqual([mine]);
      expect(registry()).toEqual([mine]);
    } finally {
      if (before === undefined) delete (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: object[] }).AI_SDK_TELEMETRY_INTEGRATIONS;
      else registry()!.splice(registry()!.indexOf(mine), 1);
    }
  });

  it('stops with exit 2 before any trial, naming @ai-sdk/otel and its install, in a project on ai 7 without it', async () => {
    const dir = writeProject({
      'evals.config.mjs':
        "import { writeFileSync } from 'node:fs';\nexport default { targets: { agent: { function: async () => { writeFileSync(process.env.MARKER, 'called'); return 'hi'; }, otel: true } } };\n",
      ...evalFile,
    });
    // The project has this line's ai 7 installed, and no @ai-sdk/otel.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(import.meta.dirname, '../../node_modules/ai'), join(dir, 'node_modules/ai'), 'dir');
    const stderr = expectStoppedBeforeTargets(await runMarked(dir, [], {}, runCliInProcess));
    expect(stderr).toMatch(
      /evals\.config\.mjs: targets\.agent\.otel: otel: true: this project's ai 7\.\d+\.\d+ emits no spans unless a telemetry integration is registered, and @ai-sdk\/otel is not installed; run: npm i -D @ai-sdk\/otel/,
    );
  });
});
