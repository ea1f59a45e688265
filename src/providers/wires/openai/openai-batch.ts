import { errorMessage } from '../../../core/errors.js';
import type OpenAI from 'openai';
import { toProviderError } from '../../errors.js';
import { formatModelSpec } from '../../model-spec.js';
import { checkOpenAISpec, fromOpenAICompletion, openAIParams } from './openai-wire.js';
import { inRequestScope } from '../../rate-limit-fetch.js';
import { errorContext, providerFetch, sdkClientOptions, type ProviderSettings } from '../../settings.js';
import { jsonlLines } from '../../jsonl-stream.js';
import type { BatchApi, BatchItem, BatchItemResult, BatchStatus } from '../../batch-types.js';
import type { CompletionRequest, CompletionResponse } from '../../types.js';

/** The OpenAI Batch API's limits on one input file. */
export const OPENAI_BATCH_MAX_REQUESTS = 50_000;
export const OPENAI_BATCH_MAX_BYTES = 200 * 1024 * 1024;

/**
 * What a batch line is on one endpoint: its `url`, its body for a request (the same builder as a
 * live call) and the reading of a result line's body. Chat Completions here; the Responses wire
 * brings its own (`/v1/responses`).
 */
export interface OpenAIBatchEndpoint {
  url: OpenAI.BatchCreateParams['endpoint'];
  body(spec: ProviderSettings['spec'], request: CompletionRequest): unknown;
  read(body: unknown): CompletionResponse;
}

const CHAT_ENDPOINT: OpenAIBatchEndpoint = {
  url: '/v1/chat/completions',
  body: (spec, request) => openAIParams(spec, request),
  read: (body) => fromOpenAICompletion(body as OpenAI.ChatCompletion),
};

/** Where an OpenAI batch stands, as our states: everything before an end is `pending`; a status not listed here is `unknown`. */
const STATE: Record<OpenAI.Batch['status'], BatchStatus['state']> = {
  validating: 'pending',
  in_progress: 'pending',
  finalizing: 'pending',
  cancelling: 'pending',
  completed: 'ended',
  failed: 'failed',
  expired: 'expired',
  cancelled: 'cancelled',
};

/**
 * OpenAI's Batch API over the official SDK: a JSONL file of requests to one endpoint (Chat
 * Completions by default, built by the same `openAIParams` as a live call) uploaded with purpose `batch`, one batch over it, its output
 * and error files read back through the endpoint's own reading (`fromOpenAICompletion` for Chat Completions).
 */
export class OpenAIBatchApi implements BatchApi {
  readonly provider = 'openai' as const;
  readonly spec: string;
  readonly maxRequests = OPENAI_BATCH_MAX_REQUESTS;
  readonly maxBytes = OPENAI_BATCH_MAX_BYTES;
  // Private: the client holds the API key. Made on first use, so building the judge loads no SDK.
  #client: Promise<OpenAI> | undefined;
  readonly #settings: ProviderSettings;
  readonly #endpoint: OpenAIBatchEndpoint;

  constructor(settings: ProviderSettings, endpoint: OpenAIBatchEndpoint = CHAT_ENDPOINT) {
    // A setting the model refuses fails here, before any request is sent.
    checkOpenAISpec(settings.spec);
    this.#settings = settings;
    this.#endpoint = endpoint;
    this.spec = formatModelSpec(settings.spec);
  }

  sizeOf(item: BatchItem): number {
    return Buffer.byteLength(this.#line(item)) + 1;
  }

  async submit(items: BatchItem[], signal?: AbortSignal): Promise<string> {
    const jsonl = items.map((item) => `${this.#line(item)}\n`).join('');
    return this.#call(signal, async (client, options) => {
      const { toFile } = await import('openai');
      const file = await client.files.create({ file: await toFile(Buffer.from(jsonl), 'judge-batch.jsonl'), purpose: 'batch' }, options);
      const batch = await client.batches.create({ input_file_id: file.id, endpoint: this.#endpoint.url, completion_window: '24h' }, options);
      return batch.id;
    });
  }

  async status(id: string, signal?: AbortSignal): Promise<BatchStatus> {
    const batch = await this.#call(signal, (client, options) => client.batches.retrieve(id, options));
    const counts = batch.request_counts;
    const state = Object.hasOwn(STATE, batch.status) ? STATE[batch.status] : 'unknown';
    return { id, state, ...(state === 'unknown' ? { providerState: String(batch.status) } : {}), done: (counts?.completed ?? 0) + (counts?.failed ?? 0), total: counts?.total ?? 0 };
  }

  /**
   * The output and error files, streamed line by line (never whole: a full batch's output is far
   * past one reply's cap), each line under `maxResponseBytes` (or the batch line default), at most one line per request a batch may hold.
   */
  async results(id: string, signal?: AbortSignal): Promise<BatchItemResult[]> {
    return this.#call(signal, async (client, options) => {
      const batch = await client.batches.retrieve(id, options);
      const out: BatchItemResult[] = [];
      const maxLine = this.#settings.spec.maxResponseBytes;
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (!fileId) continue;
        const res = await client.files.content(fileId, options);
        for await (const line of jsonlLines(res.body, maxLine)) {
          if (out.length >= OPENAI_BATCH_MAX_REQUESTS) throw new Error(`batch ${id} returned more result lines than the ${OPENAI_BATCH_MAX_REQUESTS} requests a batch may hold`);
          out.push(readLine(line, this.#endpoint));
        }
      }
      return out;
    });
  }

  async cancel(id: string): Promise<void> {
    await this.#call(undefined, (client, options) => client.batches.cancel(id, options));
  }

  #line(item: BatchItem): string {
    const { signal: _signal, ...request } = item.request;
    const body = this.#endpoint.body(this.#settings.spec, request);
    return JSON.stringify({ custom_id: item.customId, method: 'POST', url: this.#endpoint.url, body });
  }

  async #call<T>(signal: AbortSignal | undefined, fn: (client: OpenAI, options: { signal: AbortSignal } | undefined) => Promise<T>): Promise<T> {
    // Result files come as a stream (jsonlLines bounds each line); every other body stays capped whole.
    const settings = { ...this.#settings, fetch: this.#settings.fetch ?? providerFetch(this.#settings, isFileContent) };
    this.#client ??= import('openai').then((m) => new m.default(sdkClientOptions(settings)));
    try {
      const client = await this.#client;
      return await inRequestScope(signal, (options) => fn(client, options));
    } catch (err) {
      throw toProviderError(err, errorContext(this.#settings));
    }
  }
}

function isFileContent(url: URL): boolean {
  return /\/files\/[^/]+\/content$/.test(url.pathname);
}

/** One line of an output or error file: `{custom_id, response: {status_code, body}, error}`. */
function readLine(line: string, endpoint: OpenAIBatchEndpoint): BatchItemResult {
  let parsed: { custom_id?: unknown; response?: { status_code?: number; body?: unknown } | null; error?: { message?: string; code?: string } | null };
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    return { customId: '', ok: false, error: 'malformed line in the batch output' };
  }
  const customId = typeof parsed.custom_id === 'string' ? parsed.custom_id : '';
  const res = parsed.response;
  if (res && res.status_code === 200) {
    try {
      return { customId, ok: true, response: endpoint.read(res.body) };
    } catch (err) {
      return { customId, ok: false, error: errorMessage(err) };
    }
  }
  const bodyError = (res?.body as { error?: { message?: string } } | undefined)?.error?.message;
  const message = bodyError ?? parsed.error?.message ?? parsed.error?.code ?? 'no response';
  return { customId, ok: false, error: res?.status_code ? `HTTP ${res.status_code}: ${message}` : message };
}
