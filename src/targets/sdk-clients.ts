import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions as OpenAIClientOptions } from 'openai';
import type { ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import type { TokenUsage } from '../core/usage.js';
import type { ProviderId } from '../providers/types.js';
import type { FetchLike } from '../providers/rate-limit-fetch.js';
import { resolveApiKey, resolveBaseURL } from '../providers/model-spec.js';
import { usageFromEventStream, usageFromJson } from './usage-from-body.js';
import { dryRunFetch } from './dry-run-fetch.js';

export type { OpenAIClientOptions, AnthropicClientOptions };

/** Where a client's calls are recorded: one step per call, priced by `provider:model`. */
export interface UsageRecorder {
  record(usage: TokenUsage, model: string): void;
  /** Reading a response's usage runs beside the caller; the trial waits for it before it ends. */
  track(work: Promise<void>): void;
  /** A model call was sent; `done` once its usage is read or it turned out to bill nothing. */
  begin(model: string): { done(): void };
}

/**
 * A real OpenAI SDK client whose usage counts as the trial's target usage. Nothing is mocked: the
 * client gets a `fetch` that reads `usage` off a copy of each successful response.
 */
export async function openaiClient(recorder: UsageRecorder, options: OpenAIClientOptions = {}, env: NodeJS.ProcessEnv = process.env, dryRun = false): Promise<OpenAI> {
  const { default: OpenAISdk } = await import('openai');
  return new OpenAISdk({ ...options, ...connection('openai', recorder, options, env, dryRun) });
}

/** A real Anthropic SDK client whose usage counts as the trial's target usage (see openaiClient). */
export async function anthropicClient(recorder: UsageRecorder, options: AnthropicClientOptions = {}, env: NodeJS.ProcessEnv = process.env, dryRun = false): Promise<Anthropic> {
  const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
  return new AnthropicSdk({ ...options, ...connection('anthropic', recorder, options, env, dryRun) });
}

/**
 * Key, endpoint and the recording fetch of a client. In a dry run no key is needed and the
 * client's fetch answers in-process with the placeholder (zero usage): no request leaves.
 */
function connection<K>(
  provider: ProviderId,
  recorder: UsageRecorder,
  options: { apiKey?: K | null | undefined; baseURL?: string | null | undefined; fetch?: unknown },
  env: NodeJS.ProcessEnv,
  dryRun: boolean,
) {
  const spec = { provider };
  if (dryRun) return { apiKey: options.apiKey ?? 'dry-run', baseURL: options.baseURL ?? resolveBaseURL(spec, env), fetch: recordingFetch(provider, recorder, dryRunFetch(provider)) };
  return {
    apiKey: options.apiKey ?? resolveApiKey(spec, env),
    baseURL: options.baseURL ?? resolveBaseURL(spec, env),
    fetch: recordingFetch(provider, recorder, options.fetch as FetchLike | undefined),
  };
}

/**
 * A fetch that records every successful model call's usage and model (JSON or streamed) on the
 * recorder: what the SDK clients use, and what `ctx.fetch()` hands to a framework's own client.
 */
export function recordingFetch(provider: ProviderId, recorder: UsageRecorder, base: FetchLike = globalThis.fetch): FetchLike {
  return async (input, init) => {
    // Until its usage is read, a request naming a model is a call in flight (unknown usage if the trial ends first).
    const model = requestedModel(init?.body);
    const call = model === undefined ? undefined : recorder.begin(`${provider}:${model}`);
    let res: Response;
    try {
      res = await base(input, init);
    } catch (err) {
      call?.done();
      throw err;
    }
    // Failed attempts (429s the SDK retries, errors) bill nothing; the successful one is the call.
    if (res.ok && res.body) recorder.track(readUsage(provider, res.clone(), recorder).finally(() => call?.done()));
    else call?.done();
    return res;
  };
}

/** The `model` of a JSON request body (what every model call of both SDKs sends). */
function requestedModel(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  const model = (safeParse(body) as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : undefined;
}

async function readUsage(provider: ProviderId, res: Response, recorder: UsageRecorder): Promise<void> {
  try {
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    const found = type.includes('text/event-stream') ? usageFromEventStream(provider, text) : usageFromJson(provider, safeParse(text));
    if (found) recorder.record(found.usage, `${provider}:${found.model ?? 'unknown'}`);
  } catch {
    // The caller cancelled the stream or the body was not JSON: nothing to count.
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
