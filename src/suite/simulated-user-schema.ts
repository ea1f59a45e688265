import { z } from 'zod';
import { boundedNumber, type Bound } from '../core/bounds.js';
import { ModelRefSchema } from '../judges/spec.js';
import { lazySchema, once } from '../core/lazy-schema.js';

/** Turns of one simulated conversation: each costs a user-model call and a target turn. */
const MAX_TURNS: Bound = { min: 1, max: 100, integer: true, why: 'each turn is a user-model call and a target turn' };

/**
 * A case's simulated user (instead of `turns`): a user model writes each user message from the goal,
 * the persona and the conversation so far, until it says the goal is met or it gives up, or `maxTurns`.
 */
export const simulatedUserSchema = once(() =>
  z
    .object({
      /** What the user wants from the agent; the user model pursues it. */
      goal: z.string().min(1),
      /** Who the user is and how they talk (terse, confused, impatient ...). */
      persona: z.string().min(1).optional(),
      /** The user model: `provider:model`, a model spec object, a judge of the config's `judges`, `fake`, or `{ provider: fake, fixtures }` (a scripted user); default: the case's judge. */
      model: z
        .union([
          ModelRefSchema,
          /** The fake with fixtures: their user entries script the user's messages and the end, offline (a path from the config's folder). */
          z.object({ provider: z.literal('fake'), fixtures: z.string().min(1) }).strict(),
        ])
        .optional(),
      /** The most user messages the conversation may have. */
      maxTurns: boundedNumber(MAX_TURNS),
      /** When the goal counts as met, in words, for the user model (else it judges that from the goal). */
      stopWhen: z.string().min(1).optional(),
      /**
       * End the conversation at the first failure a later turn could not undo: after each target turn, the
       * case's final assertions (notCalledTool, onlyTools, noLeak, notContains, …) are checked on the
       * conversation so far; the first that fails ends it (stop reason `detector`). Default false.
       */
      endOnFail: z.boolean().optional(),
    })
    .strict()
    .meta({
      id: 'SimulatedUser',
      description: 'A user model that writes each user message from a goal until it says the goal is met, gives up, or maxTurns (or, with endOnFail, a final assertion fails).',
    }),
);
export const SimulatedUserSchema = lazySchema(simulatedUserSchema);
export type SimulatedUser = z.infer<typeof SimulatedUserSchema>;
