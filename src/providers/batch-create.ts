import { UserError } from '../core/errors.js';
import type { BatchApi } from './batch-types.js';
import { OpenAIBatchApi } from './openai-batch.js';
import type { ProviderSettings } from './settings.js';

/** The batch API of a resolved model spec's provider (its SDK is loaded on the first call). */
export function createBatchApi(settings: ProviderSettings): BatchApi {
  switch (settings.spec.provider) {
    case 'openai':
      return new OpenAIBatchApi(settings);
    default:
      throw new UserError(`--judge-batch: batch judging is not available for ${settings.spec.provider} judges yet`, { field: 'judge' });
  }
}
