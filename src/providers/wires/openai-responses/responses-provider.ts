import OpenAI from 'openai';
import { toProviderError } from '../../errors.js';
import { formatModelSpec } from '../../model-spec.js';
import { inRequestScope } from '../../rate-limit-fetch.js';
import { errorContext, type ProviderSettings } from '../../settings.js';
import type { CompletionRequest, CompletionResponse, Provider } from '../../types.js';
import { openAIClientOptions } from '../openai/openai.js';
import { openAIRequestOptions, warnUnsentTemperature, type OpenAIRequestOptions } from '../openai/openai-wire.js';
import { fromResponse } from './responses-reply.js';
import { responsesParams } from './responses-request.js';

/** The OpenAI Responses API over the official SDK (`responses.create`); the same client, limiter and error mapping as Chat Completions. */
export class OpenAIResponsesProvider implements Provider {
  readonly id: Provider['id'];
  readonly model: string;
  readonly spec: string;
  // Private fields: the client holds the API key and must not show up in JSON or inspect output.
  readonly #client: OpenAI;
  readonly #settings: ProviderSettings;
  readonly #requestOptions: OpenAIRequestOptions;

  constructor(settings: ProviderSettings) {
    // A setting the model refuses fails here, before any request is sent.
    this.#requestOptions = openAIRequestOptions(settings.spec);
    warnUnsentTemperature(settings.spec, this.#requestOptions);
    this.#settings = settings;
    this.id = settings.spec.provider;
    this.model = settings.spec.model;
    this.spec = formatModelSpec(settings.spec);
    this.#client = new OpenAI(openAIClientOptions(settings));
  }

  async complete(req: CompletionRequest): Promise<CompletionResponse> {
    const params = responsesParams(this.#settings.spec, req, this.#requestOptions);
    try {
      const response = await inRequestScope(req.signal, (options) => this.#client.responses.create(params, options));
      return fromResponse(response);
    } catch (err) {
      throw toProviderError(err, errorContext(this.#settings));
    }
  }
}
