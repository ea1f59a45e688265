import type { AgentRun, Step, ToolCall } from '../../src/core/agent-run.js';
import type { Usage } from '../../src/core/usage.js';
import type { AssertionContext, CheckOutcome } from '../../src/assertions/types.js';
import { deterministicAssertionRegistry } from '../../src/assertions/registry.js';

export interface CtxOptions {
  reply?: string;
  /** Tool calls, all in one step; use `steps` for several. */
  calls?: ToolCall[];
  steps?: Step[];
  usage?: Partial<Usage>;
  durationMs?: number;
  model?: string;
}

/** An AssertionContext from just the parts a test cares about. */
export function makeCtx(opts: CtxOptions = {}): AssertionContext {
  const steps = opts.steps ?? (opts.calls ? [{ toolCalls: opts.calls }] : undefined);
  const run: AgentRun = { reply: opts.reply ?? '' };
  if (steps) run.steps = steps;
  if (opts.model) run.model = opts.model;
  return {
    reply: run.reply,
    run,
    durationMs: opts.durationMs ?? 0,
    usage: { calls: 1, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0, ...opts.usage },
  };
}

export function call(name: string, args?: unknown, isError?: boolean): ToolCall {
  const c: ToolCall = { name };
  if (args !== undefined) c.args = args;
  if (isError !== undefined) c.isError = isError;
  return c;
}

/** Validates a raw spec through the registered schema (as a loaded file would be), then checks it. */
export function check(spec: { type: string } & Record<string, unknown>, ctx: AssertionContext): CheckOutcome {
  const def = deterministicAssertionRegistry.get(spec.type);
  if (!def) throw new Error(`no assertion type ${spec.type}`);
  return def.check(def.schema.parse(spec), ctx);
}

/** The zod issue messages of a spec that should not load. */
export function loadErrors(spec: { type: string } & Record<string, unknown>): string[] {
  const def = deterministicAssertionRegistry.get(spec.type);
  if (!def) throw new Error(`no assertion type ${spec.type}`);
  const result = def.schema.safeParse(spec);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}
