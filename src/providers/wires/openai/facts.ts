/** The OpenAI Chat Completions wire's defaults: shared by its descriptor and its request builder. */
import type { WireTable } from '../../capabilities.js';

/**
 * A model the table does not know gets what every Chat Completions model takes: sampling
 * parameters, a strict `json_schema` response format, `max_completion_tokens`.
 */
export const OPENAI_TABLE: WireTable = {
  id: 'openai',
  defaultCapabilities: { sampling: 'any', structuredOutput: 'json_schema', thinking: 'off', tokenParam: 'max_completion_tokens' },
};
