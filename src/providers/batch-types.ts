import type { CompletionRequest, CompletionResponse, ProviderId } from './types.js';

/** One request inside a provider batch: our id for it and the provider-neutral request. */
export interface BatchItem {
  customId: string;
  request: CompletionRequest;
}

/** One request's outcome, read back from an ended batch. */
export type BatchItemResult = { customId: string; ok: true; response: CompletionResponse } | { customId: string; ok: false; error: string };

/**
 * Where a submitted batch stands: `done` of `total` requests have an outcome so far. `unknown` is a
 * status the provider sent that this runner does not know (`providerState` holds it).
 */
export interface BatchStatus {
  id: string;
  state: 'pending' | 'ended' | 'failed' | 'cancelled' | 'expired' | 'unknown';
  providerState?: string;
  done: number;
  total: number;
}

/**
 * A provider's batch API (OpenAI Batch, Anthropic Message Batches) for one model: submitted once,
 * polled, read, cancelled. Bigger sets than one batch may hold are split by the caller at the limits.
 */
export interface BatchApi {
  readonly provider: ProviderId;
  /** `provider:model`, what the batch price is looked up under. */
  readonly spec: string;
  /** Most requests, and most bytes of request lines, one batch may hold. */
  readonly maxRequests: number;
  readonly maxBytes: number;
  /** Size of one item as the provider counts it against `maxBytes`. */
  sizeOf(item: BatchItem): number;
  submit(items: BatchItem[], signal?: AbortSignal): Promise<string>;
  status(id: string, signal?: AbortSignal): Promise<BatchStatus>;
  /**
   * An ended batch's outcomes, its result file read as a stream. `schemaNames` (custom_id → the answer
   * schema's name) is for a batch this object did not submit (a later collect): Anthropic reads a forced
   * tool's answer under it.
   */
  results(id: string, signal?: AbortSignal, schemaNames?: ReadonlyMap<string, string | undefined>): Promise<BatchItemResult[]>;
  cancel(id: string): Promise<void>;
}
