import { z } from 'zod';
import { ProviderIdSchema } from './model-spec.js';

/**
 * A model as written in files: `provider:model`, the name of a judge in the config's `judges`
 * (an agent judge, say), or a model spec object (validated by the providers). Model targets and
 * judges both take it, so it lives below both.
 */
export const ModelRefSchema = z.union([
  z.string().regex(/^([a-z][\w-]*:.+|[A-Za-z][\w.-]*)$/, 'expected "provider:model" (e.g. "openai:gpt-4.1-mini") or the name of a judge in the config\'s `judges`'),
  // The registry's ids first, so the published eval-file schema offers them; any string after, since a
  // judge object of the TS config (an agent judge: provider `agent`) passes here too.
  z.looseObject({ provider: z.union([ProviderIdSchema, z.string()]), model: z.string() }),
]);
export type ModelRef = z.infer<typeof ModelRefSchema>;
