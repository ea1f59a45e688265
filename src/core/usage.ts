import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Token counts as an agent or SDK reports them for one call or one step. */
// Built on first use (lazy-schema.ts): `list` and other commands that read no usage never build it.
export const TokenUsageSchema = lazySchema(() =>
  z
    .object({
      inputTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
      cachedInputTokens: z.number().int().nonnegative().optional(),
      reasoningTokens: z.number().int().nonnegative().optional(),
      /** Of `inputTokens`, those written to the prompt cache (Anthropic), billed above the input rate. */
      cacheWriteTokens: z.number().int().nonnegative().optional(),
      /** Of `cacheWriteTokens`, those written with the 1-hour lifetime (billed higher still). */
      cacheWrite1hTokens: z.number().int().nonnegative().optional(),
    })
    .strict(),
);
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/**
 * Usage as the results report it. `costUsd` is null when any part of the
 * usage came from a model with no known price: an unknown cost is never reported as 0.
 */
export const UsageSchema = lazySchema(() =>
  z.object({
    calls: z.number().int().nonnegative(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cachedInputTokens: z.number().int().nonnegative(),
    reasoningTokens: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative().nullable(),
  }),
);
export type Usage = z.infer<typeof UsageSchema>;

export function emptyUsage(): Usage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 };
}

/** Sum of usages; the cost is null as soon as one part is unknown. */
export function addUsage(...parts: Usage[]): Usage {
  return sumUsage(parts);
}

/** The sum of a list of usages; for lists that grow with the input (steps, label rows), which must not be spread into a call. */
export function sumUsage(parts: readonly Usage[]): Usage {
  const total = emptyUsage();
  for (const u of parts) {
    total.calls += u.calls;
    total.inputTokens += u.inputTokens;
    total.outputTokens += u.outputTokens;
    total.cachedInputTokens += u.cachedInputTokens;
    total.reasoningTokens += u.reasoningTokens;
    total.costUsd = total.costUsd === null || u.costUsd === null ? null : total.costUsd + u.costUsd;
  }
  return total;
}

export function totalTokens(u: Pick<Usage, 'inputTokens' | 'outputTokens'>): number {
  return u.inputTokens + u.outputTokens;
}

/** One call's token counts with a price already applied (null = model not priced). */
export function usageFromTokens(t: TokenUsage, costUsd: number | null, calls = 1): Usage {
  return {
    calls,
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    cachedInputTokens: t.cachedInputTokens ?? 0,
    reasoningTokens: t.reasoningTokens ?? 0,
    costUsd,
  };
}
