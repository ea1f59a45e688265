/**
 * Anthropic Message Batches over the official SDK: each item is sent with the same params a live
 * call would send (anthropicParams) and each answer read back with the same mapping
 * (fromAnthropicMessage), so a batched judgment and a live one agree to the token.
 */
import { errorMessage } from '../../../core/errors.js';
import Anthropic from '@anthropic-ai/sdk';
import { anthropicParams, warnIgnoredTemperature } from './anthropic.js';
import { fromAnthropicMessage } from './anthropic-wire.js';
import type { BatchApi, BatchItem, BatchItemResult, BatchStatus } from '../../batch-types.js';
import { redactSecrets, toProviderError } from '../../errors.js';
import { formatModelSpec } from '../../model-spec.js';
import { inRequestScope, retryAfterMs } from '../../rate-limit-fetch.js';
import { errorContext, maxRetriesOf, providerFetch, sdkClientOptions, type ProviderSettings } from '../../settings.js';
import { jsonlLines } from '../../jsonl-stream.js';

type MessageBatch = Anthropic.Messages.MessageBatch;
type BatchLine = Anthropic.Messages.MessageBatchIndividualResponse;

/** The API's limits per batch: requests, and bytes of the create request (256 MB, read as decimal to leave room for the envelope). */
export const ANTHROPIC_BATCH_MAX_REQUESTS = 100_000;
export const ANTHROPIC_BATCH_MAX_BYTES = 256_000_000;
export function anthropicBatchApi(settings: ProviderSettings): BatchApi {
  const { spec } = settings;
  // The results file of a full batch is far bigger than one reply: it comes as a stream, read line
  // by line (jsonlLines), under no total cap; every other body stays capped whole.
  const client = new Anthropic(sdkClientOptions({ ...settings, fetch: settings.fetch ?? providerFetch(settings, isResultsFile) }));
  const ctx = errorContext(settings);
  warnIgnoredTemperature(spec);
  // Per item of the batches submitted here, the name of the forced tool whose input is the answer (forced-tool models).
  const schemaNames = new Map<string, Map<string, string | undefined>>();
  const line = (item: BatchItem) => ({ custom_id: item.customId, params: anthropicParams(spec, item.request) });

  async function call<T>(signal: AbortSignal | undefined, fn: (options: { signal: AbortSignal } | undefined) => Promise<T>): Promise<T> {
    try {
      return await inRequestScope(signal, fn);
    } catch (err) {
      throw toProviderError(err, ctx);
    }
  }

  return {
    provider: 'anthropic',
    spec: formatModelSpec(spec),
    maxRequests: ANTHROPIC_BATCH_MAX_REQUESTS,
    maxBytes: ANTHROPIC_BATCH_MAX_BYTES,
    // The item's JSON inside the `requests` array, plus its separating comma.
    sizeOf: (item) => Buffer.byteLength(JSON.stringify(line(item))) + 1,

    async submit(items, signal) {
      const body = { requests: items.map(line) };
      const batch = await call(signal, (options) => createOnce(() => client.messages.batches.create(body, { ...options, maxRetries: 0 }), maxRetriesOf(settings), signal));
      schemaNames.set(batch.id, new Map(items.map((i) => [i.customId, i.request.schema?.name])));
      return batch.id;
    },

    status: (id, signal) => call(signal, async (options) => toBatchStatus(await client.messages.batches.retrieve(id, {}, options))),

    results: (id, signal, given) =>
      call(signal, async (options) => {
        const names = schemaNames.get(id) ?? given;
        const out: BatchItemResult[] = [];
        const seen = new Set<string>();
        // The SDK's request (auth, version, retries) for the `results_url`, its body read by jsonlLines: the SDK's
        // own JSONL decoder re-copies its buffer on every chunk (slow past a few MB a line) and caps no line.
        const batch = await client.messages.batches.retrieve(id, {}, options);
        if (!batch.results_url) throw new Error(`anthropic batch ${id} has no results_url (${batch.processing_status})`);
        const res = await client.get(batch.results_url, { ...options, headers: { Accept: 'application/binary' } }).asResponse();
        for await (const line of jsonlLines(res.body, spec.maxResponseBytes)) {
          const entry = JSON.parse(line) as BatchLine;
          if (typeof entry?.custom_id !== 'string') throw new Error(`anthropic batch ${id}: a results line without a custom_id`);
          if (out.length >= ANTHROPIC_BATCH_MAX_REQUESTS) throw new Error(`anthropic batch ${id} returned more results than the ${ANTHROPIC_BATCH_MAX_REQUESTS} requests a batch may hold`);
          seen.add(entry.custom_id);
          out.push(toItemResult(entry, names?.get(entry.custom_id), ctx.secrets));
        }
        // Every submitted item gets an outcome, even one the stream left out.
        for (const customId of names?.keys() ?? []) {
          if (!seen.has(customId)) out.push({ customId, ok: false, error: `anthropic batch ${id} returned no result for ${customId}` });
        }
        return out;
      }),

    cancel: (id) => call(undefined, async (options) => void (await client.messages.batches.cancel(id, {}, options))),
  };
}

/**
 * A create is resent only when the API answered that it failed (408, 409, 5xx; 429s were already
 * waited out in the fetch): after a timeout or a dropped connection the batch may have been
 * accepted, and a second one would be billed again, so that error is reported instead.
 */
async function createOnce<T>(send: () => Promise<T>, retries: number, signal: AbortSignal | undefined): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const answered: { status?: number; headers?: Headers } = err instanceof Anthropic.APIError ? (err as { status?: number; headers?: Headers }) : {};
      const { status } = answered;
      const refused = status !== undefined && (status === 408 || status === 409 || status >= 500);
      if (!refused || attempt >= retries || signal?.aborted) throw err;
      const hinted = answered.headers instanceof Headers ? retryAfterMs(answered.headers) : undefined;
      // The SDK's own schedule: 0.5 s doubling, at most 8 s, unless the API said how long.
      await wait(Math.min(60_000, hinted ?? Math.min(8_000, 500 * 2 ** attempt)), signal);
    }
  }
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function isResultsFile(url: URL): boolean {
  return /\/messages\/batches\/[^/]+\/results$/.test(url.pathname);
}

/**
 * `canceling` is still pending: requests already running finish first. An ended batch is
 * `cancelled` when a cancel was asked for, `expired` when every request expired, else `ended`
 * (its errored, canceled and expired requests show in the results).
 */
export function toBatchStatus(b: MessageBatch): BatchStatus {
  const c = b.request_counts;
  const done = c.succeeded + c.errored + c.canceled + c.expired;
  const total = done + c.processing;
  let state: BatchStatus['state'] = 'pending';
  const known: readonly string[] = ['in_progress', 'canceling', 'ended'];
  if (!known.includes(b.processing_status)) return { id: b.id, state: 'unknown', providerState: String(b.processing_status), done, total };
  if (b.processing_status === 'ended') {
    if (b.cancel_initiated_at) state = 'cancelled';
    else if (c.expired > 0 && c.expired === total) state = 'expired';
    else state = 'ended';
  }
  return { id: b.id, state, done, total };
}

/** One results line: a succeeded message is mapped as a live reply; anything else is `ok: false` saying why. */
export function toItemResult(entry: BatchLine, schemaName: string | undefined, secrets: readonly string[] = []): BatchItemResult {
  const customId = entry.custom_id;
  const r = entry.result;
  switch (r.type) {
    case 'succeeded':
      try {
        return { customId, ok: true, response: fromAnthropicMessage(r.message, schemaName) };
      } catch (err) {
        return { customId, ok: false, error: redactSecrets(errorMessage(err), secrets) };
      }
    case 'errored': {
      const e = r.error?.error;
      const detail = e ? `${e.type}: ${e.message}` : 'no error detail';
      return { customId, ok: false, error: redactSecrets(`anthropic batch request errored (${detail})`, secrets) };
    }
    case 'canceled':
      return { customId, ok: false, error: 'anthropic batch request was canceled before it ran' };
    case 'expired':
      return { customId, ok: false, error: 'anthropic batch request expired before it ran (a batch has 24 hours)' };
    default:
      return { customId, ok: false, error: `anthropic batch result of unknown type '${String((r as { type?: unknown }).type)}'` };
  }
}
