import type { BatchApi } from './batch-types.js';
import type { ProviderSettings } from './settings.js';

/** The batch API of a resolved model spec's provider; its module (and SDK) is loaded only now. */
export async function createBatchApi(settings: ProviderSettings): Promise<BatchApi> {
  switch (settings.spec.provider) {
    case 'openai':
      return new (await import('./openai-batch.js')).OpenAIBatchApi(settings);
    case 'anthropic':
      return (await import('./anthropic-batch.js')).anthropicBatchApi(settings);
  }
}
