import { z } from 'zod';
import { ModelSpecInputSchema } from '../providers/model-spec.js';

/** The config's `generate` key: how `agent-evals generate` drafts cases (docs/guide/generating-cases.md). */
export const GenerateConfigSchema = z
  .object({
    /** The model that writes draft cases from a target's instructions and tools (`provider:model` or a model spec); default the config's judge model. `--model` wins. */
    model: ModelSpecInputSchema.optional(),
  })
  .strict();
export type GenerateConfig = z.infer<typeof GenerateConfigSchema>;
