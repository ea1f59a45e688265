/**
 * Helpers for the agent-loop judge tests: fake provider servers scripted turn by turn (the real
 * SDKs talk to them through `baseURL`), judge requests over a hand-built target run, a tool
 * context for calling evidence tools directly, and readers for what the fake server captured.
 */
import { makePlannedCase } from '../support/planned-case.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { resolveConfig } from '../../src/config/load-config.js';
import { resolveRunSettings } from '../../src/config/run-settings.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { withGrade } from '../judges/helpers.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import type { Judge } from '../../src/core/judge-port.js';
import type { JudgeTrialContext } from '../../src/judges/judge-service.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import { agentJudge, type AgentJudgeConfig } from '../../src/judges/agent-judge.js';
import type { Criterion, JudgeRequest } from '../../src/core/judge-port.js';
import type { TracePolicy } from '../../src/core/judge-port.js';
import { TRACE_CLOSE, TRACE_OPEN } from '../../src/judges/trace-render.js';
import { createToolState, type ToolContext } from '../../src/targets/tool.js';
import type { AgentRun } from '../../src/core/agent-run.js';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { startFakeOpenAI } from '../support/fake-openai.js';
import type { FakeProvider, FakeToolCall, FakeUsage, Script, Scripted } from '../support/fake-server.js';

export const TEST_ENV = { OPENAI_API_KEY: 'test', ANTHROPIC_API_KEY: 'test' };
export const JUDGE_MODEL = 'gpt-4.1-mini';

/** Fake servers started by a test file; closed after each test. */
export function useFakes() {
  const started: FakeProvider[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((f) => f.close()));
  });
  return {
    async openai(script: Script = []): Promise<FakeProvider> {
      const f = await startFakeOpenAI({ script });
      started.push(f);
      return f;
    },
    async anthropic(script: Script = []): Promise<FakeProvider> {
      const f = await startFakeAnthropic({ script });
      started.push(f);
      return f;
    },
  };
}

export function openaiSpec(fake: FakeProvider, model = JUDGE_MODEL) {
  return { provider: 'openai' as const, model, baseURL: fake.url };
}

/** `agentJudge` on the fake OpenAI server with a dummy key; `over` adds tools, guards, options. */
export function fakeJudge(fake: FakeProvider, over: Partial<AgentJudgeConfig> | (() => Partial<AgentJudgeConfig>) = {}) {
  return agentJudge(() => {
    const o = typeof over === 'function' ? over() : over;
    return { model: openaiSpec(fake), ...o, options: { env: TEST_ENV, ...o.options } };
  });
}

/** Scripted turns. */
export const call = (name: string, args: unknown, id?: string): FakeToolCall => ({ name, args, ...(id ? { id } : {}) });
export const submit = (score: number, reason = 'checked', evidence: string[] = []): FakeToolCall => call('submit_judgment', { score, reason, evidence });
export const turn = (calls: FakeToolCall[], usage?: FakeUsage): Scripted => ({ toolCalls: calls, ...(usage ? { usage } : {}) });

export const TARGET_REPLY = 'I found order A1049. Before I can refund it, please verify the email address on the order.';

export function targetRun(reply = TARGET_REPLY): AgentRun {
  return {
    reply,
    instructions: 'You are the store support agent.',
    model: 'anthropic:claude-haiku-4-5',
    steps: [
      {
        toolCalls: [{ name: 'orders_lookup', args: { orderId: 'A1049' }, result: { id: 'A1049', status: 'delivered' }, isError: false, durationMs: 3 }],
        usage: { inputTokens: 120, outputTokens: 12 },
        model: 'anthropic:claude-haiku-4-5',
      },
      { text: reply, usage: { inputTokens: 150, outputTokens: 30 }, model: 'anthropic:claude-haiku-4-5' },
    ],
  };
}

export function judgeRequest(over: { reply?: string; input?: string; criterion?: Criterion; tracePolicy?: TracePolicy; run?: AgentRun } = {}): JudgeRequest {
  const run = over.run ?? targetRun(over.reply);
  return {
    criterion: over.criterion ?? { kind: 'rubric', criteria: 'The agent asks for ownership verification before any refund, as the refund policy requires.', scale: 1, dimensions: [] },
    output: run.reply,
    input: over.input ?? 'Please refund order A1049.',
    run,
    tracePolicy: over.tracePolicy ?? 'safe',
    subject: { case: 'support/refunds', assertion: 'judge', type: 'judge' },
  };
}

/** A tool context like the judge gives its evidence tools: fresh state per context. */
export function toolContext(): ToolContext {
  return {
    signal: new AbortController().signal,
    trial: { suite: 'tools', id: 'unit', trial: 0, input: '', messages: [] },
    state: createToolState(),
  };
}

/** The user message of a captured OpenAI request. */
export function userText(body: any): string {
  return (body.messages as any[]).find((m) => m.role === 'user').content;
}

export function systemText(body: any): string {
  return (body.messages as any[]).find((m) => m.role === 'system')?.content ?? '';
}

/** The tool messages (results sent back to the model) of a captured OpenAI request. */
export function toolMessages(body: any): Array<{ tool_call_id: string; content: string }> {
  return (body.messages as any[]).filter((m) => m.role === 'tool');
}

export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** The user message split around the untrusted block. */
export function splitPrompt(user: string): { before: string; inside: string; after: string } {
  const open = user.indexOf(TRACE_OPEN);
  const close = user.indexOf(TRACE_CLOSE);
  if (open === -1 || close === -1 || close < open) throw new Error(`no untrusted block in:\n${user}`);
  return { before: user.slice(0, open), inside: user.slice(open + TRACE_OPEN.length, close), after: user.slice(close + TRACE_CLOSE.length) };
}

/** Awaits a promise expected to reject and returns the error. */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await p;
  } catch (err) {
    return err as Error & Record<string, any>;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** The runner's judge service with `judge` as the config's judge; warnings collected. */
export function judgeService(judge: Judge, warnings: string[] = []) {
  const root = mkdtempSync(join(tmpdir(), 'agent-evals-agent-judge-'));
  const config = resolveConfig({ judge, outputDir: join(root, 'out') }, root, null, {});
  const env = { ...TEST_ENV };
  return withGrade(
    createJudgeService({
      settings: resolveRunSettings(config, { dryRun: false, cache: false }, env).judging,
      pricing: { overrides: {}, warnUnpriced: () => {} },
      env,
      warn: (m) => warnings.push(m),
      limiters: new ProviderLimiters(),
    }),
  );
}

export function plannedCase(over: Partial<PlannedCase> = {}): PlannedCase {
  return makePlannedCase(over, { suite: 'support', file: 'support.eval.ts', input: 'Please refund order A1049.' });
}

export function trialContext(run: AgentRun = targetRun(), c: PlannedCase = plannedCase()): JudgeTrialContext {
  return { subject: c, trialIndex: 0, run, reply: run.reply, caseJudge: undefined, signal: new AbortController().signal };
}

export function rubric(criteria: string, over: Partial<JudgeAssertionSpec> = {}): JudgeAssertionSpec {
  return { type: 'judge', criteria, ...over } as JudgeAssertionSpec;
}
