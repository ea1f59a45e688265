import { z } from 'zod';

/**
 * A model as written in files: `provider:model`, the name of a judge in the config's `judges`
 * (an agent judge, say), or a model spec object (validated by the providers). Model targets and
 * judges both take it, so it lives below both.
 */
export const ModelRefSchema = z.union([
  z.string().regex(/^([a-z][\w-]*:.+|[A-Za-z][\w.-]*)$/, 'expected "provider:model" (e.g. "openai:gpt-4.1-mini") or the name of a judge in the config\'s `judges`'),
  z.looseObject({ provider: z.string(), model: z.string() }),
]);
export type ModelRef = z.infer<typeof ModelRefSchema>;
