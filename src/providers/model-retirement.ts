/**
 * When the tables say a model stops being served: the chat rows (model-table.ts) and the embedding
 * rows (embedding-models.ts). A run warns about a model whose date has passed; doctor shows it.
 */
import { familyRow } from './capability-lookup.js';
import { embeddingRow } from './embedding-models.js';
import { modelFamily } from './model-family.js';
import type { ModelSpec } from './model-spec.js';
import { providerWire } from './wires.js';

export interface Retirement {
  /** The day the provider stops serving it (YYYY-MM-DD). */
  shutdown: string;
  /** Where the date was read, in words, and when. */
  source: string;
  asOf: string;
}

/**
 * The announced shutdown of `spec`'s model, or undefined. Only for the provider whose own schedule the
 * row was read from (an OpenAI-compatible server or Azure retires models on its own dates), and only
 * for the row's own family: a prefix row lends its rules to ids it does not name, not its date.
 */
export function retirementOf(spec: Pick<ModelSpec, 'provider' | 'model'>): Retirement | undefined {
  const wire = providerWire(spec.provider);
  if (wire.homeProvider !== spec.provider) return undefined;
  const family = modelFamily(spec.model);
  const row = familyRow(wire.id, spec.model) ?? embeddingRow({ provider: spec.provider, model: family });
  if (!row?.shutdown || ('family' in row ? row.family : row.model) !== family) return undefined;
  return { shutdown: row.shutdown, source: row.source, asOf: row.asOf };
}

/** `now` as the tables write their dates (UTC). */
export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Whether the shutdown day has come: on that day the model may already be gone. */
export function hasShutDown(r: Retirement, today: string): boolean {
  return r.shutdown <= today;
}
