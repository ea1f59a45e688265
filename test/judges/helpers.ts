/**
 * In-process helpers for the judge tests: a judge service over a fake provider server (the real
 * SDKs speak to it through `baseURL`), hand-built planned cases and runs, and readers for the
 * judge request as the fake server captured it.
 */
import { makePlannedCase } from '../support/planned-case.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config/load-config.js';
import { resolveRunSettings } from '../../src/config/run-settings.js';
import { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { JudgeRef } from '../../src/judges/resolve.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import { judgedResult } from '../../src/judges/judged-result.js';
import type { JudgeAssertionSpec } from '../../src/judges/spec.js';
import { TRACE_CLOSE, TRACE_OPEN } from '../../src/judges/trace-render.js';
import type { JudgeService, JudgeTrialContext } from '../../src/judges/judge-service.js';
import type { JudgeBatch } from '../../src/judges/judge-batch.js';
import type { Graded } from '../../src/judges/graded.js';
import type { Pricing } from '../../src/providers/run-usage.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import type { AgentRun } from '../../src/core/agent-run.js';

export const TEST_ENV = { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key', GEMINI_API_KEY: 'test-key' };

export const pricing: Pricing = { overrides: {}, warnUnpriced: () => {} };

export type ProviderName = 'openai' | 'anthropic';

/** The model each fake is asked for: both are priced and both take temperature 0. */
export const MODEL: Record<ProviderName, string> = { openai: 'gpt-4.1-mini', anthropic: 'claude-haiku-4-5' };

export function judgeRef(provider: ProviderName, url: string, model = MODEL[provider]) {
  return { provider, model, baseURL: url };
}

export interface ServiceSetup {
  judge?: ConfigInput['judge'];
  config?: Omit<ConfigInput, 'judge'>;
  cache?: boolean;
  dryRun?: boolean;
  /** `--judge` (an object ref points a model at a fake server). */
  override?: JudgeRef;
  warnings?: string[];
  /** `--judge-batch`: inference judges' calls wait in this batch until it is flushed. */
  batch?: JudgeBatch;
}

/**
 * The runner's judge service on a config built in memory (no files, no process env), with
 * `grade`: its judgment turned into the assertion result as the runner does.
 */
export function judgeService(s: ServiceSetup) {
  const root = mkdtempSync(join(tmpdir(), 'agent-evals-judges-'));
  const config = resolveConfig({ ...(s.config ?? {}), ...(s.judge !== undefined ? { judge: s.judge } : {}), outputDir: join(root, 'out') }, root, null, {});
  const env = { ...TEST_ENV };
  const { judging } = resolveRunSettings(config, { dryRun: s.dryRun ?? false, cache: s.cache ?? false }, env);
  return withGrade(
    createJudgeService({
      // The override as `--judge` would set it, but any judge reference (the CLI gives only strings).
      settings: { ...judging, ...(s.override ? { override: s.override } : {}) },
      pricing,
      env,
      warn: (m) => s.warnings?.push(m),
      limiters: new ProviderLimiters(),
      ...(s.batch ? { batch: s.batch } : {}),
    }),
  );
}

/** A judge service plus `grade(spec, ctx)`: the runner's result for that assertion (the one builder). */
export function withGrade<S extends JudgeService>(service: S): S & { grade(spec: JudgeAssertionSpec, ctx: JudgeTrialContext): Promise<Graded> } {
  return Object.assign(service, {
    grade: async (spec: JudgeAssertionSpec, ctx: JudgeTrialContext) => judgedResult(spec, ctx.subject.judgeDefaults, await service.judge(spec, ctx)),
  });
}

export function plannedCase(over: Partial<PlannedCase> = {}): PlannedCase {
  return makePlannedCase(over, { suite: 'judges', file: 'judges.eval.yaml', input: 'INPUT-TEXT: where is my order 4711?' });
}

export const INSTRUCTIONS = 'INSTRUCTIONS-TEXT: you are the order desk; never promise refunds.';
export const REPLY = 'REPLY-TEXT: order 4711 shipped yesterday.';

/** A run with instructions and tool calls whose arguments and results must not leak under `safe`. */
export function sampleRun(reply = REPLY): AgentRun {
  return {
    reply,
    instructions: INSTRUCTIONS,
    model: 'openai:gpt-4.1-nano',
    steps: [
      { text: 'STEP-TEXT: looking the order up' },
      {
        toolCalls: [{ name: 'lookup_order', args: { orderId: 'SECRET-ARG-4711' }, result: 'SECRET-RESULT-shipped', isError: false, durationMs: 12.4 }],
        usage: { inputTokens: 40, outputTokens: 9 },
      },
      { toolCalls: [{ name: 'issue_refund', args: { amount: 5 }, result: 'SECRET-ERROR-not-allowed', isError: true }] },
    ],
  };
}

/** A trial's judge context; the run's instructions count as the config's (a model agent's), so trusted. */
export function trialContext(c: PlannedCase, run: AgentRun, reply = run.reply): JudgeTrialContext {
  return {
    subject: c,
    trialIndex: 0,
    run,
    reply,
    caseJudge: undefined,
    signal: new AbortController().signal,
    ...(run.instructions ? { trustedInstructions: run.instructions } : {}),
  };
}

export function spec<T extends JudgeAssertionSpec>(s: T): T {
  return s;
}

/** The user message of a captured request, for both wire formats. */
export function userText(body: any): string {
  const msg = (body.messages as any[]).find((m) => m.role === 'user');
  if (typeof msg.content === 'string') return msg.content;
  return (msg.content as any[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

/** The system text of a captured request, for both wire formats. */
export function systemText(body: any): string {
  if (body.system !== undefined) return typeof body.system === 'string' ? body.system : body.system.map((b: any) => b.text).join('');
  return (body.messages as any[]).find((m) => m.role === 'system').content;
}

export function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** The user message split around the one untrusted block, and the block's JSON parsed. */
export function splitPrompt(user: string): { before: string; block: any; after: string } {
  const open = user.indexOf(TRACE_OPEN);
  const close = user.indexOf(TRACE_CLOSE);
  if (open === -1 || close === -1 || close < open) throw new Error(`no untrusted block in:\n${user}`);
  const inner = user.slice(open + TRACE_OPEN.length, close);
  return { before: user.slice(0, open), block: JSON.parse(inner), after: user.slice(close + TRACE_CLOSE.length) };
}

/** An eval file of one case (order A1049 asked about, target `agent`) with one rubric judge. */
export function oneRubricYaml(suite: string, criteria: string): string {
  return `suite: ${suite}
target: agent
cases:
  - id: plain
    input: Where is my order A1049?
    assert:
      - { type: judge, criteria: ${JSON.stringify(criteria)} }
`;
}
