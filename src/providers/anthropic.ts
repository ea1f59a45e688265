import Anthropic from '@anthropic-ai/sdk';
import { fromAnthropicMessage, toAnthropicParams } from './anthropic-wire.js';
import { toProviderError } from './errors.js';
import { formatModelSpec, type ModelSpec } from './model-spec.js';
import { requestScope } from './rate-limit-fetch.js';
import { DEFAULT_ANTHROPIC_MAX_TOKENS, errorContext, sdkClientOptions, type ProviderSettings } from './settings.js';
import type { CompletionRequest, CompletionResponse, Provider } from './types.js';

/** The Messages params for `req` under the spec's defaults: what a live call sends, and a batch line. */
export function anthropicParams(spec: ModelSpec, req: CompletionRequest): Anthropic.MessageCreateParamsNonStreaming {
  return toAnthropicParams(spec.model, req, {
    maxTokens: spec.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
  });
}

/** Anthropic Messages over the official SDK; retries and backoff are the SDK's. */
export class AnthropicProvider implements Provider {
  readonly id = 'anthropic' as const;
  readonly model: string;
  readonly spec: string;
  // Private fields: the client holds the API key and must not show up in JSON or inspect output.
  readonly #client: Anthropic;
  readonly #settings: ProviderSettings;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.model = settings.spec.model;
    this.spec = formatModelSpec(settings.spec);
    this.#client = new Anthropic(sdkClientOptions(settings));
  }

  async complete(req: CompletionRequest): Promise<CompletionResponse> {
    const params = anthropicParams(this.#settings.spec, req);
    try {
      // The limiter gates each HTTP attempt inside the fetch wrapper, retries included.
      const scope = requestScope(req.signal);
      const message = await this.#client.messages.create(params, scope.options).finally(scope.done);
      return fromAnthropicMessage(message, req.schema?.name);
    } catch (err) {
      throw toProviderError(err, errorContext(this.#settings));
    }
  }
}
