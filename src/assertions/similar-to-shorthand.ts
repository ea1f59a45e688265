import type { SimilarToSpec } from './similar-to.js';

/** The optional fields of the `similarTo` shorthands (`t.similarTo` in a check, `evaluate().similarTo`). */
export interface SimilarToOptions {
  /** The embedding model (`provider:model` or `fake`); else the config's `embeddingModel`. */
  model?: string;
  /** Shorter vectors (the embeddings API's `dimensions`). */
  dimensions?: number;
}

/**
 * A `similarTo` spec from a shorthand's arguments. The third is the model's name (the first form,
 * kept working) or the options; the spec is checked later with every other assertion's.
 */
export function similarToShorthand(value: string, threshold: number, modelOrOptions?: string | SimilarToOptions): Pick<SimilarToSpec, 'type' | 'value' | 'threshold' | 'model' | 'dimensions'> {
  const { model, dimensions } = typeof modelOrOptions === 'string' ? { model: modelOrOptions, dimensions: undefined } : (modelOrOptions ?? {});
  return { type: 'similarTo', value, threshold, ...(model !== undefined ? { model } : {}), ...(dimensions !== undefined ? { dimensions } : {}) };
}
