import { z } from 'zod';
import { lazySchema } from '../core/lazy-schema.js';
import { lacksReference, missingReferenceMessage, ModelRefSchema } from '../judges/spec.js';
import { AssertionSpecSchema } from './schema.js';

/** A value `where:` matches a metadata value against: a string, number or boolean. */
const WhereValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/**
 * A scoring file (`*.score.yaml`): the assertions `agent-evals score` runs on recorded agent runs,
 * and which runs they apply to. `schemas/score-file.schema.json` is generated from this.
 */
export const ScoreFileSchema = lazySchema(() =>
  z
    .object({
      /** The scoring file's name: the suite of its scored cases in the results (`<name>/<trace id>`). */
      name: z
        .string()
        .min(1)
        .regex(/^[^\s*?/]+$/, 'a scoring file name has no spaces, "/", "*" or "?"'),
      description: z.string().optional(),
      /**
       * Which traces it scores, by their metadata: each key must be in a trace's metadata with this value
       * (or one of these values). Absent: every trace.
       */
      where: z.record(z.string().min(1), z.union([WhereValueSchema, z.array(WhereValueSchema).min(1)])).optional(),
      /** The judge of its judged assertions (else the config's). */
      judge: ModelRefSchema.optional(),
      /** The only tools the recorded agent may have called: any other call fails the trace. */
      onlyTools: z.array(z.string().min(1)).optional(),
      /** The same assertions an eval file takes: gates on the recorded reply and trajectory, then judges. */
      assert: z
        .array(AssertionSpecSchema, {
          // Absent, the field is what is missing (zod would say "expected array, received undefined").
          error: (iss) => (iss.input === undefined ? 'a scoring file needs "assert", the assertions each trace is graded with' : undefined),
        })
        .min(1, 'a scoring file needs at least one assertion in "assert"'),
    })
    .strict()
    .superRefine((v, ctx) => {
      // A recorded run has no reference: a judged assertion that compares with one carries its own.
      v.assert.forEach((spec, i) => {
        if (lacksReference(spec, undefined)) ctx.addIssue({ code: 'custom', message: `${missingReferenceMessage(spec.type)} (a scored trace has none)`, path: ['assert', i] });
      });
    })
    .meta({ id: 'ScoreFile', description: 'A scoring file: assertions `agent-evals score` runs on recorded agent runs whose metadata matches `where`.' }),
);
export type ScoreFile = z.infer<typeof ScoreFileSchema>;
