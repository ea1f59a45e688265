import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions as OpenAIClientOptions } from 'openai';
import type { ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import type { TokenUsage } from '../trace/usage.js';
import type { ProviderId } from '../providers/types.js';
import type { FetchLike } from '../providers/rate-limit-fetch.js';
import { resolveApiKey, resolveBaseURL } from '../providers/model-spec.js';
import { usageFromEventStream, usageFromJson } from './usage-from-body.js';

export type { OpenAIClientOptions, AnthropicClientOptions };

/** Where a client's calls are recorded: one step per call, priced by `provider:model`. */
export interface UsageRecorder {
  record(usage: TokenUsage, model: string): void;
  /** Reading a response's usage runs beside the caller; the trial waits for it before it ends. */
  track(work: Promise<void>): void;
}

/**
 * A real OpenAI SDK client whose usage counts as the trial's target usage. Nothing is mocked: the
 * client gets a `fetch` that reads `usage` off a copy of each successful response.
 */
export async function openaiClient(recorder: UsageRecorder, options: OpenAIClientOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<OpenAI> {
  const { default: OpenAISdk } = await import('openai');
  const spec = { provider: 'openai' as const };
  return new OpenAISdk({
    ...options,
    apiKey: options.apiKey ?? resolveApiKey(spec, env),
    baseURL: options.baseURL ?? resolveBaseURL(spec, env),
    fetch: recordingFetch('openai', recorder, options.fetch as FetchLike | undefined),
  });
}

/** A real Anthropic SDK client whose usage counts as the trial's target usage (see openaiClient). */
export async function anthropicClient(recorder: UsageRecorder, options: AnthropicClientOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Anthropic> {
  const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
  const spec = { provider: 'anthropic' as const };
  return new AnthropicSdk({
    ...options,
    apiKey: options.apiKey ?? resolveApiKey(spec, env),
    baseURL: options.baseURL ?? resolveBaseURL(spec, env),
    fetch: recordingFetch('anthropic', recorder, options.fetch as FetchLike | undefined),
  });
}

function recordingFetch(provider: ProviderId, recorder: UsageRecorder, base: FetchLike = globalThis.fetch): FetchLike {
  return async (input, init) => {
    const res = await base(input, init);
    // Failed attempts (429s the SDK retries, errors) bill nothing; the successful one is the call.
    if (res.ok && res.body) recorder.track(readUsage(provider, res.clone(), recorder));
    return res;
  };
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
