import { errorMessage, UserError } from '../core/errors.js';
import type { UncollectedBatch } from '../core/results-schema.js';
import type { BatchApi, BatchItem, BatchItemResult, BatchStatus } from '../providers/batch-types.js';
import type { CompletionRequest, CompletionResponse, Provider } from '../providers/types.js';
import { collectBatch, type CollectedAnswers, type CollectRequest } from './batch-collect.js';
import { DEFAULT_BATCH_POLLING, type BatchPolling } from './batch-polling.js';
import { batchOutcomes, requestDigest } from './batch-outcomes.js';

/**
 * Output tokens a request is assumed to spend, for the cost estimate, when neither it nor its wire
 * sets a limit: the Anthropic wire's own default, a judge's answer with room to spare.
 */
export const ESTIMATE_MAX_OUTPUT_TOKENS = 4096;

/** What a queued request would cost at most, in tokens: what `--max-cost` prices before a submit. */
export interface BatchEstimate {
  spec: string;
  inputTokens: number;
  outputTokens: number;
}

interface Entry {
  item: BatchItem;
  /** requestDigest of the call: what a later collect matches the re-judge's call to its answer by. */
  digest: string;
  api: BatchApi;
  maxTokens: number;
  resolve(res: CompletionResponse): void;
  reject(err: Error): void;
}

/**
 * A run's judge batch: inference judges' calls wait here instead of going out, and `flush` sends
 * what waits as one batch per provider and model (split at the provider's limits), polls each with
 * backoff, and answers every call from the results. When to flush is the runner's decision.
 */
export class JudgeBatch {
  readonly #queue: Entry[] = [];
  readonly #polling: BatchPolling;
  readonly #progress: (line: string) => void;
  readonly #listeners: Array<() => void> = [];
  readonly #warn: (message: string) => void;
  readonly #uncollected: UncollectedBatch[] = [];
  readonly #apis: Array<Promise<BatchApi>> = [];
  readonly #collect: CollectRequest | undefined;
  #collected: CollectedAnswers | undefined;
  #next = 0;
  #submitted = 0;

  /** `collect` (`rejudge --batch`): a recorded uncollected batch whose answers serve the calls they were made for (see `collect()`). */
  constructor(opts: { polling?: Partial<BatchPolling>; progress(line: string): void; warn?(message: string): void; collect?: CollectRequest }) {
    this.#polling = { ...DEFAULT_BATCH_POLLING, ...opts.polling };
    this.#progress = opts.progress;
    this.#warn = opts.warn ?? opts.progress;
    this.#collect = opts.collect;
  }

  /**
   * Reads the recorded batch given as `collect` from its provider, through the batch API of the judge
   * whose model it names (the judges must be built first). From then on a call whose request digest
   * the batch holds is answered from it at once, never sent again; the others queue as usual.
   */
  async collect(signal: AbortSignal): Promise<void> {
    const req = this.#collect;
    if (!req) return;
    const apis = await Promise.all(this.#apis.map((a) => a.catch(() => undefined)));
    const api = apis.find((a) => a?.spec === req.batch.spec);
    if (!api)
      throw new UserError(`judge batch ${req.batch.id} holds calls to ${req.batch.spec}, and no judge of the current config (or --judge) is that model: nothing could take its answers`, {
        field: '--batch',
      });
    this.#collected = await collectBatch(api, req, { polling: this.#polling, progress: this.#progress, signal });
  }

  /** The collected batch's answers no call took (the judges or cases changed since the run), for a warning. */
  get collectedUnused(): { id: string; count: number } | undefined {
    return this.#collected && this.#collected.unused > 0 ? { id: this.#collected.id, count: this.#collected.unused } : undefined;
  }

  /** Batches given up on while still at the provider (polls kept failing): what the results keep to collect later. */
  get uncollected(): readonly UncollectedBatch[] {
    return this.#uncollected;
  }

  /** Calls waiting for the next flush. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Batches being submitted, or submitted and not yet read back (or cancelled). */
  get submitted(): number {
    return this.#submitted;
  }

  /** Called after each call joins the queue. */
  onQueued(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * `live` with its calls sent through `api` (once loaded) at the next flush: same id, model and spec, so the
   * judge above it (prompt, cache key, answer parsing) is the live judge's. `maxTokens` is the
   * model spec's limit, for the estimate.
   */
  provider(live: Provider, api: Promise<BatchApi>, maxTokens?: number): Provider {
    // Awaited by each call; a load that failed fails the calls, never the process.
    api.catch(() => {});
    this.#apis.push(api);
    return {
      id: live.id,
      model: live.model,
      spec: live.spec,
      complete: async (request) => this.#enqueue(request, await api, request.maxTokens ?? maxTokens ?? ESTIMATE_MAX_OUTPUT_TOKENS),
    };
  }

  #enqueue(request: CompletionRequest, api: BatchApi, maxTokens: number): Promise<CompletionResponse> {
    return new Promise<CompletionResponse>((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) return reject(new Error('interrupted before the judge batch was sent'));
      const digest = requestDigest(api.spec, request);
      const held = this.#collected?.spec === api.spec ? this.#collected.take(digest) : undefined;
      // Answered by the collected batch: parsed as any batch answer, and never asked again.
      if (held) return held.ok ? resolve(held.response) : reject(new Error(held.error));
      const entry: Entry = { item: { customId: `judge-${++this.#next}`, request }, digest, api, maxTokens, resolve, reject };
      this.#queue.push(entry);
      for (const l of this.#listeners) l();
    });
  }

  /** Token estimate of the queued calls per model: input from each request line's size, output from its token limit. */
  estimate(): BatchEstimate[] {
    const bySpec = new Map<string, BatchEstimate>();
    for (const e of this.#queue) {
      const est = bySpec.get(e.api.spec) ?? { spec: e.api.spec, inputTokens: 0, outputTokens: 0 };
      // About four bytes a token; the line's JSON framing makes this an overestimate, as a budget wants.
      est.inputTokens += Math.ceil(e.api.sizeOf(e.item) / 4);
      est.outputTokens += e.maxTokens;
      bySpec.set(e.api.spec, est);
    }
    return [...bySpec.values()];
  }

  /** Answers every queued call with `error` (a refused or interrupted batch). */
  failQueued(error: Error): void {
    for (const e of this.#queue.splice(0)) e.reject(error);
  }

  /** Sends what is queued, and resolves once every one of its calls is answered (or failed). */
  async flush(signal: AbortSignal): Promise<void> {
    const taken = this.#queue.splice(0);
    const groups = new Map<BatchApi, Entry[]>();
    for (const e of taken) groups.set(e.api, [...(groups.get(e.api) ?? []), e]);
    let chunks: Entry[][];
    try {
      chunks = [...groups].flatMap(([api, entries]) => splitAtLimits(api, entries));
    } catch (err) {
      return failAll(taken, new Error(`the judge batch could not be built: ${errorMessage(err)}`));
    }
    await Promise.all(chunks.map((chunk) => this.#run(chunk, signal)));
  }

  async #run(entries: Entry[], signal: AbortSignal): Promise<void> {
    if (signal.aborted) return failAll(entries, new Error('interrupted before the judge batch was sent'));
    this.#submitted += 1;
    try {
      await this.#send(entries, signal);
    } catch (err) {
      // Whatever went wrong, no call is left waiting (an answered one is not changed by this).
      failAll(entries, new Error(`judge batch: ${errorMessage(err)}`));
    } finally {
      this.#submitted -= 1;
    }
  }

  async #send(entries: Entry[], signal: AbortSignal): Promise<void> {
    const api = entries[0]!.api;
    let id: string;
    try {
      // Not cut off by Ctrl-C: a batch the provider created must be known here to be cancelled.
      id = await api.submit(entries.map((e) => e.item));
    } catch (err) {
      return failAll(entries, new Error(`the judge batch could not be submitted: ${errorMessage(err)}`));
    }
    this.#progress(`judge batch ${id} (${api.spec}): ${entries.length} request${entries.length === 1 ? '' : 's'} submitted`);
    let status: BatchStatus;
    try {
      status = await this.#poll(api, id, entries.length, signal);
    } catch (err) {
      if (err instanceof PollFailed) {
        // Not cancelled: the batch may still end, and its (paid) answers be collected by its id.
        const requests = entries.map((e) => ({ customId: e.item.customId, digest: e.digest, ...(e.item.request.schema ? { schema: e.item.request.schema.name } : {}) }));
        this.#uncollected.push({ id, spec: api.spec, reason: err.message, requests });
        this.#warn(
          `judge batch ${id} (${api.spec}) was left at the provider uncollected: ${err.message}; its id is kept in the results (summary.uncollectedBatches): collect it with \`agent-evals rejudge <results> --batch ${id}\``,
        );
        // Each judgment names its own request, so its answer can be found in the batch's output later.
        for (const e of entries)
          e.reject(new Error(`judge batch ${id} (request ${e.item.customId}): ${err.message}; the batch id is kept in the results to collect later (\`agent-evals rejudge <results> --batch ${id}\`)`));
        return;
      }
      if (!signal.aborted) return failAll(entries, new Error(`judge batch ${id}: ${errorMessage(err)}`));
      // Ctrl-C: the provider is told to stop (and to stop billing) before the run writes what finished.
      await api.cancel(id).then(
        () => this.#progress(`judge batch ${id}: cancelled`),
        (e: unknown) => this.#progress(`judge batch ${id}: could not be cancelled: ${errorMessage(e)}`),
      );
      return failAll(entries, new Error(`interrupted: judge batch ${id} was cancelled`));
    }
    let results: BatchItemResult[] = [];
    if (status.state !== 'failed') {
      try {
        results = await api.results(id, signal);
      } catch (err) {
        return failAll(entries, new Error(`judge batch ${id}: its results could not be read: ${errorMessage(err)}`));
      }
    }
    const outcome = batchOutcomes(id, status.state, results);
    for (const e of entries) {
      const r = outcome(e.item.customId);
      if (r.ok) e.resolve(r.response);
      else e.reject(new Error(r.error));
    }
  }

  /**
   * Polls until the batch ends. A status the runner does not know is waited on for at most
   * `unknownStateMs` and a failing poll retried for at most `pollFailureMs` (both in polling time);
   * past either the batch is given up (a PollFailed for the second: its id is kept).
   */
  async #poll(api: BatchApi, id: string, total: number, signal: AbortSignal): Promise<BatchStatus> {
    const { firstDelayMs, maxDelayMs, unknownStateMs, pollFailureMs } = this.#polling;
    let delay = firstDelayMs;
    let shown = '';
    let unknownFor = 0;
    let failingFor = 0;
    for (;;) {
      await this.#polling.sleep(delay, signal);
      signal.throwIfAborted();
      let status: BatchStatus;
      try {
        status = await api.status(id, signal);
        failingFor = 0;
      } catch (err) {
        signal.throwIfAborted();
        failingFor += delay;
        if (failingFor >= pollFailureMs) throw new PollFailed(`its status could not be read for ${formatMs(failingFor)} of polling: ${errorMessage(err)}`);
        this.#progress(`judge batch ${id}: poll failed (retrying): ${errorMessage(err)}`);
        delay = Math.min(delay * 2, maxDelayMs);
        continue;
      }
      const word = status.state === 'unknown' ? `unknown status '${status.providerState ?? '?'}'` : status.state;
      const line = `${status.done}/${status.total || total} done${status.state === 'pending' ? '' : `, ${word}`}`;
      if (line !== shown) this.#progress(`judge batch ${id}: ${line}`);
      shown = line;
      if (status.state === 'unknown') {
        unknownFor += delay;
        if (unknownFor >= unknownStateMs)
          throw new Error(
            `the provider reported status '${status.providerState ?? '?'}', which this runner does not know, for ${formatMs(unknownFor)} of polling (the bound is ${formatMs(unknownStateMs)})`,
          );
      } else if (status.state !== 'pending') return status;
      else unknownFor = 0;
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }
}

/** Polls of a submitted batch kept failing past `pollFailureMs`: the batch is given up but not lost. */
class PollFailed extends Error {}

function formatMs(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

function failAll(entries: Entry[], error: Error): void {
  for (const e of entries) e.reject(error);
}

/** One provider's calls cut into batches no bigger than its limits; a call too big for any batch fails alone. */
function splitAtLimits(api: BatchApi, entries: Entry[]): Entry[][] {
  const chunks: Entry[][] = [];
  let chunk: Entry[] = [];
  let bytes = 0;
  for (const e of entries) {
    const size = api.sizeOf(e.item);
    if (size > api.maxBytes) {
      e.reject(new Error(`the judge request is ${size} bytes, more than the ${api.maxBytes} one ${api.provider} batch may hold`));
      continue;
    }
    if (chunk.length >= api.maxRequests || bytes + size > api.maxBytes) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(e);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
