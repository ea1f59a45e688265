import type { Usage } from '../core/usage.js';
import type { Embedder } from '../providers/embeddings.js';
import type { Pricing } from '../providers/run-usage.js';
import type { Provider } from '../providers/types.js';
import type { EmbeddingUse } from '../judges/cached-embedding.js';
import type { TargetDescription } from '../targets/target-description.js';
import { askGenerator } from './ask-generator.js';
import { draftCases, type DraftCase } from './draft-cases.js';
import { embedInputs, type EmbeddingSpend } from './embed-inputs.js';
import type { ExampleInput } from './generator-prompt.js';
import { balanceIntents } from './intent-balance.js';
import { dropNearDuplicates } from './near-duplicates.js';

/**
 * Items asked for per case wanted: near-duplicates and an intent's surplus are dropped afterwards,
 * so the generator writes half as many again as `--count` (20 cases: 30 asked).
 */
export const OVERASK = 1.5;

export interface GenerateOptions {
  target: TargetDescription;
  generator: Provider;
  pricing: Pricing;
  count: number;
  intents?: readonly string[];
  /** Inputs the agent has seen (traces, existing cases), shown to the generator. */
  examples: readonly ExampleInput[];
  /** Inputs of existing cases: a draft too close to one is dropped as a near-duplicate. */
  existingInputs: readonly string[];
  embedder: Embedder;
  embedding: EmbeddingUse;
  /** Cosine similarity at which an input repeats another. */
  dedupe: number;
  seed?: number;
  concurrency: number;
  signal: AbortSignal;
}

export interface GeneratedDrafts {
  cases: DraftCase[];
  /** Items the generator wrote. */
  generated: number;
  nearDuplicates: number;
  overShare: number;
  unknownTools: number;
  /** Cases per intent, in the order the intents came. */
  byIntent: { intent: string; cases: number }[];
  generatorUsage: Usage;
  embedding: EmbeddingSpend;
}

/**
 * Drafts up to `count` cases for one target: the generator writes them (OVERASK as many), inputs that
 * repeat an existing case's or an earlier draft's (the same text, or an embedding at least `dedupe`
 * similar) are dropped, each intent keeps at most its share, and each kept item becomes a draft case
 * whose assertions name only the target's tools.
 */
export async function generateDrafts(opts: GenerateOptions): Promise<GeneratedDrafts> {
  const { items, usage: generatorUsage } = await askGenerator(opts.generator, {
    target: opts.target,
    asked: Math.ceil(opts.count * OVERASK),
    ...(opts.intents?.length ? { intents: opts.intents } : {}),
    examples: opts.examples,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    pricing: opts.pricing,
    signal: opts.signal,
  });
  // The same text (up to case and spacing) is a duplicate whatever the embedder says: the offline
  // one gives a text of function words alone no direction at all.
  const seen = new Set(opts.existingInputs.map(sameText));
  const distinct = items.filter((item) => {
    const key = sameText(item.input);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const texts = [...opts.existingInputs, ...distinct.map((i) => i.input)];
  const { vectors, spend } = await embedInputs(opts.embedder, texts, { ...opts.embedding, concurrency: opts.concurrency, signal: opts.signal });
  const existing = vectors.slice(0, opts.existingInputs.length);
  const { kept } = dropNearDuplicates(existing, vectors.slice(opts.existingInputs.length), opts.dedupe);
  const unrepeated = kept.map((k) => distinct[k]!);
  const balanced = balanceIntents(unrepeated, opts.count, opts.intents);
  const chosen = balanced.kept.map((k) => unrepeated[k]!);
  const { cases, unknownTools } = draftCases(
    chosen,
    opts.target.tools.map((t) => t.name),
    opts.generator.spec,
  );
  const byIntent = new Map<string, number>();
  for (const c of chosen) byIntent.set(c.intent, (byIntent.get(c.intent) ?? 0) + 1);
  return {
    cases,
    generated: items.length,
    nearDuplicates: items.length - unrepeated.length,
    overShare: balanced.overShare,
    unknownTools,
    byIntent: [...byIntent].map(([intent, n]) => ({ intent, cases: n })),
    generatorUsage,
    embedding: spend,
  };
}

const sameText = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
