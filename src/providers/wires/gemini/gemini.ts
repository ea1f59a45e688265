import { GoogleGenAI, type GoogleGenAIOptions } from '@google/genai';
import { ProviderError } from '../../../core/errors.js';
import { redactSecrets, toProviderError, type ErrorContext } from '../../errors.js';
import { formatModelSpec, specCapabilitiesOn, type ModelSpec } from '../../model-spec.js';
import { inRequestScope } from '../../rate-limit-fetch.js';
import { errorContext, maxRetriesOf, sdkClientOptions, type ProviderSettings } from '../../settings.js';
import type { CompletionRequest, CompletionResponse, Provider, ProviderId } from '../../types.js';
import { GEMINI_TABLE } from './facts.js';
import { fromGeminiResponse, toGeminiParams, type GeminiOptions, type GeminiParams } from './gemini-wire.js';

/** The generateContent parameters for `req` under the spec's settings: what a call sends. */
export function geminiParams(spec: ModelSpec, req: CompletionRequest, options: GeminiOptions = geminiRequestOptions(spec)): GeminiParams {
  return toGeminiParams(spec.model, req, options);
}

/** How every request under `spec` is shaped: the same for each call, so a provider works it out once. */
export function geminiRequestOptions(spec: ModelSpec): GeminiOptions {
  return {
    capabilities: specCapabilitiesOn(GEMINI_TABLE, spec),
    ...(spec.reasoningEffort !== undefined ? { effort: spec.reasoningEffort } : {}),
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
  };
}

/**
 * Statuses the SDK retries itself (its default list less 429). A 429 is retried by our fetch,
 * through the endpoint's limiter (rate-limit-fetch.ts), and reaches the SDK only once the wait
 * budget is spent: retrying it again there would hammer the same wall.
 */
const SDK_RETRIED = [408, 500, 502, 503, 504];

/**
 * The client options: the Gemini API (never Vertex AI, whatever GOOGLE_GENAI_USE_VERTEXAI says),
 * the resolved key and endpoint, the spec's headers, and our fetch (the project's transport and
 * proxy route, the limiter, each attempt's own time limit), which the SDK takes as
 * `httpOptions.fetch`. The SDK retries only when given `retryOptions`.
 */
export function geminiClientOptions(settings: ProviderSettings): GoogleGenAIOptions {
  const common = sdkClientOptions(settings);
  return {
    vertexai: false,
    apiKey: settings.apiKey,
    httpOptions: {
      baseUrl: settings.baseURL,
      timeout: common.timeout,
      retryOptions: { attempts: maxRetriesOf(settings) + 1, httpStatusCodes: SDK_RETRIED },
      fetch: common.fetch,
      ...(settings.spec.headers ? { headers: settings.spec.headers } : {}),
    },
  };
}

/** The Gemini API's generateContent over `@google/genai`; retries and backoff are the SDK's (429s ours). */
export class GeminiProvider implements Provider {
  readonly id: ProviderId;
  readonly model: string;
  readonly spec: string;
  // Private fields: the client holds the API key and must not show up in JSON or inspect output.
  readonly #client: GoogleGenAI;
  readonly #settings: ProviderSettings;
  readonly #requestOptions: GeminiOptions;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.#requestOptions = geminiRequestOptions(settings.spec);
    this.id = settings.spec.provider;
    this.model = settings.spec.model;
    this.spec = formatModelSpec(settings.spec);
    this.#client = new GoogleGenAI(geminiClientOptions(settings));
  }

  async complete(req: CompletionRequest): Promise<CompletionResponse> {
    const params = geminiParams(this.#settings.spec, req, this.#requestOptions);
    try {
      // The limiter gates each HTTP attempt inside the fetch wrapper, retries included.
      const res = await inRequestScope(req.signal, (options) =>
        this.#client.models.generateContent({
          ...params,
          config: { ...params.config, ...(options ? { abortSignal: options.signal, ...(options.headers ? { httpOptions: { headers: options.headers } } : {}) } : {}) },
        }),
      );
      return fromGeminiResponse(res, this.model, req.schema?.name);
    } catch (err) {
      throw geminiError(err, errorContext(this.#settings));
    }
  }
}

/**
 * What the SDK threw as a ProviderError. Its ApiError carries the status and the error body as
 * JSON text (`{"error":{"code","message","status"}}`): the message is the body's own. Failures
 * before any answer come as the fetch's errors: the attempt's time limit (a TimeoutError), a
 * connection that failed (`fetch failed`).
 */
export function geminiError(err: unknown, ctx: ErrorContext): ProviderError {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; message?: unknown; status?: unknown; cause?: unknown };
  const p = ctx.provider;
  if (e.name === 'TimeoutError') return new ProviderError(p, 'timeout', `${p} request timed out after ${ctx.timeoutMs} ms (${ctx.attempts} attempts)`);
  if (err instanceof TypeError && e.message === 'fetch failed') {
    const cause = e.cause instanceof Error ? `: ${redactSecrets(e.cause.message, ctx.secrets)}` : '';
    return new ProviderError(p, 'connection', `could not reach ${p} at ${ctx.host} after ${ctx.attempts} attempts${cause}`);
  }
  if (typeof e.status === 'number') return toProviderError({ status: e.status, message: apiMessage(String(e.message ?? '')) }, ctx);
  return toProviderError(err, ctx);
}

function apiMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; status?: unknown } };
    const message = body.error?.message;
    if (typeof message === 'string') return typeof body.error?.status === 'string' ? `${body.error.status}: ${message}` : message;
  } catch {
    // not JSON: the text as it came
  }
  return text;
}
