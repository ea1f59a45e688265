/**
 * The model families the project knows, one row each, with what each accepts (see capabilities.ts).
 * Every row names where its facts were read and when; the price of each family is in price-table.ts.
 */
import type { ModelFamilyRow } from './capabilities.js';

const READ = '2026-12-01';

export const MODEL_TABLE: readonly ModelFamilyRow[] = [
  // Seed rows (to be completed from the providers' model pages).
  {
    wire: 'openai',
    family: 'gpt-4.1',
    prefix: true,
    capabilities: { sampling: 'any', structuredOutput: 'json_schema', thinking: 'off', tokenParam: 'max_completion_tokens' },
    source: 'OpenAI docs: GPT-4.1 model page',
    asOf: READ,
  },
  {
    wire: 'anthropic',
    family: 'claude-haiku-4-5',
    capabilities: { sampling: 'none', structuredOutput: 'forced_tool', thinking: 'optional', tokenParam: 'max_tokens', promptCacheMinTokens: 4096 },
    source: 'Anthropic docs: Claude Haiku 4.5 model page',
    asOf: READ,
  },
];
