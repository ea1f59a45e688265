/**
 * Which models make embeddings: the capability table's rows for embedding models (the chat rows are
 * model-table.ts; prices are in price-table.ts). On `openai` only these embed; an OpenAI-compatible
 * server (another provider on the OpenAI wire) serves whatever models it has, so any of its models is
 * taken and the server decides; the Anthropic wire has no embeddings endpoint.
 */
import { parseModelSpec, type ModelSpec } from './model-spec.js';
import { providerWire } from './wires.js';

export interface EmbeddingModelRow {
  model: string;
  /** Length of the vectors it returns by default. */
  dimensions: number;
  /** Takes the `dimensions` request field (shorter vectors); a 400 on the others. */
  acceptsDimensions: boolean;
  /** The day the provider stops serving it, where announced (YYYY-MM-DD); a run warns once it has passed. */
  shutdown?: string;
  /** Where the facts were read, in words (never a link), and the date they were read. */
  source: string;
  asOf: string;
}

const READ = '2026-12-02';

export const OPENAI_EMBEDDING_MODELS: readonly EmbeddingModelRow[] = [
  {
    model: 'text-embedding-3-large',
    dimensions: 3072,
    acceptsDimensions: true,
    source: 'OpenAI docs: text-embedding-3-large model page and the Embeddings guide (`dimensions` only on text-embedding-3 and later)',
    asOf: READ,
  },
  {
    model: 'text-embedding-3-small',
    dimensions: 1536,
    acceptsDimensions: true,
    source: 'OpenAI docs: text-embedding-3-large model page, quick comparison (text-embedding-3-small), and the Embeddings guide',
    asOf: READ,
  },
  {
    model: 'text-embedding-ada-002',
    dimensions: 1536,
    acceptsDimensions: false,
    source: 'OpenAI SDK 6.49 EmbeddingModel type and the Embeddings guide (legacy model; `dimensions` not supported)',
    asOf: READ,
  },
];

export function openAIEmbeddingRow(model: string): EmbeddingModelRow | undefined {
  return OPENAI_EMBEDDING_MODELS.find((r) => r.model === model);
}

/** The table's row for an embedding model of OpenAI's own (another server's models are its own business). */
export function embeddingRow(spec: Pick<ModelSpec, 'provider' | 'model'>): EmbeddingModelRow | undefined {
  return spec.provider === 'openai' ? openAIEmbeddingRow(spec.model) : undefined;
}

/** Why `ref` cannot make embeddings, or undefined when it can (`fake` always can). */
export function embeddingModelProblem(ref: string): string | undefined {
  if (ref === 'fake') return undefined;
  let spec;
  try {
    spec = parseModelSpec(ref);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  if (!providerWire(spec.provider).embedder) return `${ref} cannot make embeddings: ${spec.provider} has no embeddings API (use an OpenAI or OpenAI-compatible model, or "fake")`;
  if (spec.provider === 'openai' && !embeddingRow(spec)) {
    return `${ref} is not an embedding model (OpenAI's are ${OPENAI_EMBEDDING_MODELS.map((r) => r.model).join(', ')})`;
  }
  return undefined;
}

/**
 * Why `ref` cannot take `dimensions: n`, or undefined when it can: an OpenAI model that does not take
 * the field (ada-002: the API answers 400), or more than its own vector length. An OpenAI-compatible
 * server's model is the server's to refuse; the offline `fake` ignores it.
 */
export function dimensionsProblem(ref: string, n: number): string | undefined {
  if (ref === 'fake' || embeddingModelProblem(ref) !== undefined) return undefined;
  const spec = parseModelSpec(ref);
  const row = embeddingRow(spec);
  if (!row) return undefined;
  if (!row.acceptsDimensions) return `${row.model} does not take \`dimensions\` (only text-embedding-3 and later models do); remove it or use openai:text-embedding-3-small`;
  if (n > row.dimensions) return `${row.model} makes vectors of at most ${row.dimensions} dimensions, not ${n}`;
  return undefined;
}
