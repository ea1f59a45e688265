import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions as OpenAIClientOptions } from 'openai';
import type { ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import type { TokenUsage } from '../core/usage.js';
import type { ProviderId } from '../providers/types.js';
import { wireOf } from '../providers/registry.js';
import type { FetchLike } from '../providers/fetch-like.js';
import { transportFetch } from '../providers/http-transport.js';
import type { ProxySetting } from '../providers/proxy.js';
import { resolveApiKey, resolveBaseURL } from '../providers/model-spec.js';
import type { Wire } from '../providers/capabilities.js';
import { streamUsage, usageFromJson, type BodyUsage } from './usage-from-body.js';
import { streamToolCalls, toolCallsFromJson, toolResultsFromRequest, type WireToolCall, type WireToolResult } from './tool-calls-from-body.js';
import { forEachEvent, isObject, safeParse } from '../providers/json-body.js';
import { dryRunFetch } from './dry-run-fetch.js';

export type { OpenAIClientOptions, AnthropicClientOptions };

/** One model call as read off its response: its usage (when the body reports it), model and tool calls. */
export interface RecordedCall {
  usage: TokenUsage | undefined;
  /** `provider:model`, what prices the usage. */
  model: string;
  toolCalls: WireToolCall[];
}

/** Where a client's calls are recorded: one step per call, priced by `provider:model`, with its tool calls. */
export interface CallRecorder {
  record(call: RecordedCall): void;
  /** Tool results a request sent back to the model (joined with their calls by id). */
  answered(results: WireToolResult[]): void;
  /** Reading a response runs beside the caller; the trial waits for it before it ends. */
  track(work: Promise<void>): void;
  /** A model call was sent; `done` once its usage is read or it turned out to bill nothing. */
  begin(model: string): { done(): void };
}

/** Where a function target's clients send their requests: the run's environment and `proxy` setting, or nowhere in a dry run. */
export interface ClientNetwork {
  /** Key and base URL variables, and HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  env: NodeJS.ProcessEnv;
  /** The config's `proxy`, over the environment's; unset: the environment's. */
  proxy?: ProxySetting | undefined;
  /** `--dry-run`: answered in-process with the placeholder, zero usage. */
  dryRun: boolean;
}

/**
 * The fetch under a client's recording one: the dry run's in-process answer, else the transport
 * the providers use (undici, the keep-alive dispatcher of the run's proxy route).
 */
export function networkFetch(provider: ProviderId, network: ClientNetwork): FetchLike {
  return network.dryRun ? dryRunFetch(provider) : transportFetch({ proxy: network.proxy, env: network.env });
}

/**
 * A real OpenAI SDK client whose usage counts as the trial's target usage. Nothing is mocked: the
 * client gets a `fetch` that reads `usage` and tool calls off a copy of each successful response.
 */
export async function openaiClient(recorder: CallRecorder, options: OpenAIClientOptions = {}, network: ClientNetwork): Promise<OpenAI> {
  const { default: OpenAISdk } = await import('openai');
  return new OpenAISdk({ ...options, ...connection('openai', recorder, options, network) });
}

/** A real Anthropic SDK client whose usage counts as the trial's target usage (see openaiClient). */
export async function anthropicClient(recorder: CallRecorder, options: AnthropicClientOptions = {}, network: ClientNetwork): Promise<Anthropic> {
  const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
  return new AnthropicSdk({ ...options, ...connection('anthropic', recorder, options, network) });
}

/**
 * Key, endpoint and the recording fetch of a client. In a dry run no key is needed and the
 * client's fetch answers in-process with the placeholder (zero usage): no request leaves. A
 * `fetch` of the caller's own is used as given (its own route); it is recorded all the same.
 */
function connection<K>(provider: ProviderId, recorder: CallRecorder, options: { apiKey?: K | null | undefined; baseURL?: string | null | undefined; fetch?: unknown }, network: ClientNetwork) {
  const spec = { provider };
  const baseURL = options.baseURL ?? resolveBaseURL(spec, network.env);
  if (network.dryRun) return { apiKey: options.apiKey ?? 'dry-run', baseURL, fetch: recordingFetch(provider, recorder, networkFetch(provider, network)) };
  return {
    apiKey: options.apiKey ?? resolveApiKey(spec, network.env),
    baseURL,
    fetch: recordingFetch(provider, recorder, (options.fetch as FetchLike | undefined) ?? networkFetch(provider, network)),
  };
}

/**
 * A fetch that records every successful model call's usage, model and tool calls (JSON or
 * streamed) on the recorder, and the tool results each request sends back: what the SDK clients
 * use, and what `ctx.fetch()` hands to a framework's own client.
 */
export function recordingFetch(provider: ProviderId, recorder: CallRecorder, base: FetchLike): FetchLike {
  const wire = wireOf(provider);
  return async (input, init) => {
    // The request body is parsed once: its model, and the tool results it carries.
    const body = typeof init?.body === 'string' ? safeParse(init.body) : undefined;
    const results = toolResultsFromRequest(wire, body);
    if (results.length > 0) recorder.answered(results);
    // Until its usage is read, a request naming a model is a call in flight (unknown usage if the trial ends first).
    const model = isObject(body) && typeof body.model === 'string' ? body.model : undefined;
    const call = model === undefined ? undefined : recorder.begin(`${provider}:${model}`);
    let res: Response;
    try {
      res = await base(input, init);
    } catch (err) {
      call?.done();
      throw err;
    }
    // Failed attempts (429s the SDK retries, errors) bill nothing; the successful one is the call.
    if (res.ok && res.body) recorder.track(readResponse(provider, wire, res.clone(), recorder).finally(() => call?.done()));
    else call?.done();
    return res;
  };
}

/** A response read once, to its end: usage, model and tool calls in one pass over its text. */
async function readResponse(provider: ProviderId, wire: Wire, res: Response, recorder: CallRecorder): Promise<void> {
  try {
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    let found: BodyUsage | undefined;
    let toolCalls: WireToolCall[];
    if (type.includes('text/event-stream')) {
      const usage = streamUsage(wire);
      const calls = streamToolCalls(wire);
      forEachEvent(text, (event) => {
        usage.event(event);
        calls.event(event);
      });
      found = usage.result();
      toolCalls = calls.result();
    } else {
      const body = safeParse(text);
      found = usageFromJson(wire, body);
      toolCalls = toolCallsFromJson(wire, body);
    }
    if (found || toolCalls.length > 0) recorder.record({ usage: found?.usage, model: `${provider}:${found?.model ?? 'unknown'}`, toolCalls });
  } catch {
    // The caller cancelled the stream or the body was not JSON: nothing to count.
  }
}
