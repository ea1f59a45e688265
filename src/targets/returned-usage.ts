import type { AgentRun, Step } from '../core/agent-run.js';
import type { TokenUsage } from '../core/usage.js';

/** A returned run folded into what the recorder saw, and how the two sources of usage met. */
export interface MergedRun {
  run: AgentRun;
  /** Returned calls whose tokens equal a recorded call's: the same call, counted once. */
  countedOnce: number;
  /** Returned usage that matched nothing recorded, while usage was recorded too: both are counted. */
  addedBoth: boolean;
}

/**
 * A function target may record usage (ctx.openai(), ctx.usage()) and also return it in its run.
 * A returned call with the same token counts as a recorded one is that call: its usage is dropped
 * (the step keeps its text and tool calls). Returned usage that matches nothing is counted on top.
 * Either way the caller is told, so the two are never added together silently.
 */
export function mergeReturnedRun(recorded: Step[], value: AgentRun): MergedRun {
  const { usage: runUsage, ...run } = value;
  const returned = run.steps ?? [];
  const pool = recorded.filter((s) => s.usage).map((s) => s.usage!);
  const hadRecorded = pool.length > 0;
  let countedOnce = 0;
  let addedBoth = false;
  const kept: Step[] = [];
  for (const step of returned) {
    const i = step.usage ? pool.findIndex((u) => sameTokens(u, step.usage!)) : -1;
    if (i === -1) {
      if (step.usage && hadRecorded) addedBoth = true;
      kept.push(step);
      continue;
    }
    pool.splice(i, 1);
    countedOnce += 1;
    const { usage: _usage, model: _model, ...rest } = step;
    if (Object.keys(rest).length > 0) kept.push(rest);
  }
  const all = [...recorded, ...kept];
  // A run-level usage is the returned run's own only when its steps carry none (AgentRun's rule).
  if (runUsage && !returned.some((s) => s.usage)) {
    const total = sumTokens(recorded.filter((s) => s.usage).map((s) => s.usage!));
    if (hadRecorded && sameTokens(total, runUsage)) countedOnce += recorded.filter((s) => s.usage).length;
    else if (hadRecorded) {
      addedBoth = true;
      all.push({ usage: runUsage, ...(run.model ? { model: run.model } : {}) });
    } else return { run: { ...run, usage: runUsage, steps: all }, countedOnce, addedBoth };
  }
  return { run: { ...run, steps: all }, countedOnce, addedBoth };
}

function sameTokens(a: TokenUsage, b: TokenUsage): boolean {
  return a.inputTokens === b.inputTokens && a.outputTokens === b.outputTokens && (a.cachedInputTokens ?? 0) === (b.cachedInputTokens ?? 0);
}

function sumTokens(parts: TokenUsage[]): TokenUsage {
  return parts.reduce<TokenUsage>(
    (t, u) => ({ inputTokens: t.inputTokens + u.inputTokens, outputTokens: t.outputTokens + u.outputTokens, cachedInputTokens: (t.cachedInputTokens ?? 0) + (u.cachedInputTokens ?? 0) }),
    { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
  );
}
