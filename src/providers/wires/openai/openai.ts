import OpenAI from 'openai';
import { toProviderError } from '../../errors.js';
import { formatModelSpec } from '../../model-spec.js';
import { fromOpenAICompletion, openAIParams, openAIRequestOptions, warnUnsentTemperature, type OpenAIRequestOptions } from './openai-wire.js';
import { inRequestScope } from '../../rate-limit-fetch.js';
import { errorContext, sdkClientOptions, type ProviderSettings } from '../../settings.js';
import type { CompletionRequest, CompletionResponse, Provider } from '../../types.js';

/** OpenAI Chat Completions over the official SDK; retries and backoff are the SDK's. */
export class OpenAIProvider implements Provider {
  readonly id = 'openai' as const;
  readonly model: string;
  readonly spec: string;
  // Private fields: the client holds the API key and must not show up in JSON or inspect output.
  readonly #client: OpenAI;
  readonly #settings: ProviderSettings;
  readonly #requestOptions: OpenAIRequestOptions;

  constructor(settings: ProviderSettings) {
    // A setting the model refuses fails here, before any request is sent (and each call reuses them).
    this.#requestOptions = openAIRequestOptions(settings.spec);
    warnUnsentTemperature(settings.spec, this.#requestOptions);
    this.#settings = settings;
    this.model = settings.spec.model;
    this.spec = formatModelSpec(settings.spec);
    this.#client = new OpenAI(openAIClientOptions(settings));
  }

  async complete(req: CompletionRequest): Promise<CompletionResponse> {
    const params = openAIParams(this.#settings.spec, req, this.#requestOptions);
    try {
      // The limiter gates each HTTP attempt inside the fetch wrapper, retries included.
      const completion = await inRequestScope(req.signal, (options) => this.#client.chat.completions.create(params, options));
      return fromOpenAICompletion(completion);
    } catch (err) {
      throw toProviderError(err, errorContext(this.#settings));
    }
  }
}

/**
 * The client options of an OpenAI-wire provider. The SDK adds OPENAI_ORG_ID and OPENAI_PROJECT_ID from
 * the environment as headers: an OpenAI-compatible server of another company (a preset) must not get them.
 */
export function openAIClientOptions(settings: ProviderSettings): ConstructorParameters<typeof OpenAI>[0] {
  const options = sdkClientOptions(settings);
  return settings.spec.provider === 'openai' ? options : { ...options, organization: null, project: null };
}
