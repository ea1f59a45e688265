import type OpenAI from 'openai';
import type { Embedder } from '../../embeddings.js';
import { toProviderError } from '../../errors.js';
import { formatModelSpec } from '../../model-spec.js';
import { inRequestScope } from '../../rate-limit-fetch.js';
import { errorContext, type ProviderSettings } from '../../settings.js';

/**
 * OpenAI's embeddings endpoint (or an OpenAI-compatible server's) over the official SDK: the same
 * client options, limiter and error mapping as the chat provider. The SDK is loaded on the first call.
 */
export function openAIEmbedder(settings: ProviderSettings): Embedder {
  let client: Promise<OpenAI> | undefined;
  const clientOf = (): Promise<OpenAI> => {
    client ??= Promise.all([import('openai'), import('./openai.js')]).then(([{ default: SDK }, { openAIClientOptions }]) => new SDK(openAIClientOptions(settings)));
    return client;
  };
  return {
    spec: formatModelSpec(settings.spec),
    endpoint: settings.baseURL,
    async embed(text, signal, dimensions) {
      // Floats asked for by name: the SDK otherwise asks for base64 and decodes it itself.
      const params: OpenAI.EmbeddingCreateParams = { model: settings.spec.model, input: text, encoding_format: 'float', ...(dimensions !== undefined ? { dimensions } : {}) };
      try {
        const sdk = await clientOf();
        const res = await inRequestScope(signal, (options) => sdk.embeddings.create(params, options));
        const first = res.data.find((d) => d.index === 0) ?? res.data[0];
        if (!first) throw new Error('the embeddings response has no data');
        return { vector: first.embedding, tokens: { inputTokens: res.usage.prompt_tokens, outputTokens: 0 }, model: res.model };
      } catch (err) {
        throw toProviderError(err, errorContext(settings));
      }
    },
  };
}
