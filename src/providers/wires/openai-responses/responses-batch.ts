import type OpenAI from 'openai';
import type { BatchApi } from '../../batch-types.js';
import type { ProviderSettings } from '../../settings.js';
import { OpenAIBatchApi } from '../openai/openai-batch.js';
import { fromResponse } from './responses-reply.js';
import { responsesParams } from './responses-request.js';

/** OpenAI's Batch API with lines on `/v1/responses`: each body the same Responses body a live call sends, each result read as a live response is. */
export function responsesBatchApi(settings: ProviderSettings): BatchApi {
  return new OpenAIBatchApi(settings, {
    url: '/v1/responses',
    body: (spec, request) => responsesParams(spec, request),
    read: (body) => fromResponse(body as OpenAI.Responses.Response),
  });
}
