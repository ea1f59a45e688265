import { z } from 'zod';
import { ModelSpecStringSchema } from '../providers/model-spec.js';
import { dimensionsProblem, embeddingModelProblem } from '../providers/embedding-models.js';
import { assertionCommonFields } from './types.js';
import { quote } from './format.js';

/** An embedding model: `provider:model` (OpenAI or an OpenAI-compatible server), or `fake` (offline, see fake-embedder.ts). */
export const EmbeddingModelRefSchema = z.union([z.literal('fake'), ModelSpecStringSchema]).superRefine((ref, ctx) => {
  // The capability table says which models embed: a chat model here is a load error naming the field.
  const problem = embeddingModelProblem(ref);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * `similarTo`: the cosine similarity of the embeddings of the reply and `value`, passing at
 * `threshold` or above. Unlike `similarity` (edit distance), a reply that says the same in other
 * words scores high. Graded with the judges (it calls a model), its usage counted as judge usage.
 */
export const similarToAssertionSchema = z
  .object({
    type: z.literal('similarTo'),
    value: z.string().min(1),
    ...assertionCommonFields,
    /** Required: cosine scores of real embedding models sit in a model-specific band, so no default fits all. */
    threshold: assertionCommonFields.threshold.unwrap(),
    /** The embedding model; else the config's `embeddingModel`. */
    model: EmbeddingModelRefSchema.optional(),
    /** Shorter vectors (the API's `dimensions`): text-embedding-3 models and OpenAI-compatible servers that take it. */
    dimensions: z.number().int().positive().optional(),
  })
  .strict()
  .superRefine((spec, ctx) => {
    // With the assertion's own model the check is here (load); with the config's, before the run (embedding-check.ts).
    const problem = spec.model !== undefined && spec.dimensions !== undefined ? dimensionsProblem(spec.model, spec.dimensions) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', path: ['dimensions'], message: problem });
  });

export type SimilarToSpec = z.infer<typeof similarToAssertionSchema>;

export const SIMILAR_TO = 'similarTo';

export function isSimilarTo(spec: { type: string }): spec is SimilarToSpec {
  return spec.type === SIMILAR_TO;
}

/** Cosine similarity of two vectors, clamped to 0..1 (an opposite direction is as dissimilar as it gets); 0 when either is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`embeddings of different sizes (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return 0;
  return Math.min(1, Math.max(0, dot / Math.sqrt(na * nb)));
}

/** The result line of a scored `similarTo`. */
export function similarToMessage(spec: Pick<SimilarToSpec, 'value' | 'threshold'>, score: number, model: string): string {
  return `cosine similarity to ${quote(spec.value)}: ${score.toFixed(2)} (threshold ${spec.threshold}, embeddings by ${model})`;
}
