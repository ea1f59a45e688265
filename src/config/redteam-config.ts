import { z } from 'zod';
import { ModelSpecInputSchema } from '../providers/model-spec.js';

/** Tool names as a model is offered them (the providers' rule). */
const ToolNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a tool name is 1-64 letters, digits, "_" or "-"');

/** The config's `redteam` key: how `agent-evals redteam` attacks the targets (docs/guide/red-team.md). */
export const RedteamConfigSchema = z
  .object({
    /** The model that writes attacks from each target's instructions and tools (`provider:model` or a model spec); default the config's judge model. `--attacker` wins; `--offline` uses none. */
    attacker: ModelSpecInputSchema.optional(),
    /** Tools that must not run without the user's confirmation (a refund, a delete), for every target; default: guessed from the tools' names and descriptions. */
    destructiveTools: z.array(ToolNameSchema).optional(),
    /** The tools an agent may call at all (`onlyTools` of the excessive-agency attacks); default: every tool the target offers. */
    allowedTools: z.array(ToolNameSchema).optional(),
    /** Plugin ids to run (`--plugins` wins); default: every plugin. */
    plugins: z.array(z.string().min(1)).min(1).optional(),
    /** The content policy the harmful-content attacks are judged against (plain text); default: the built-in one. */
    policy: z.string().min(1).optional(),
    /** Attacks per plugin and target (`--attempts` wins; default 5). */
    attempts: z.number().int().min(1).max(100).optional(),
  })
  .strict();
export type RedteamConfig = z.infer<typeof RedteamConfigSchema>;

/** Attacks per plugin and target when neither `--attempts` nor `redteam.attempts` says. */
export const DEFAULT_REDTEAM_ATTEMPTS = 5;
