import { z } from 'zod';
import { assertionCommonFields } from '../assertions/types.js';
import { ModelRefSchema, type ModelRef } from '../providers/model-ref.js';
import { TracePolicySchema } from '../core/judge-port.js';

// A judge as written in files (a model reference); targets take the same, so it lives in providers/.
export { ModelRefSchema, type ModelRef };

/** Fields every judged assertion accepts on top of the common ones. */
const judgeFields = {
  ...assertionCommonFields,
  /** Judge for this assertion only (highest in the resolution order). */
  judge: ModelRefSchema.optional(),
  /** Show the target's instructions to the judge (default true). */
  targetInstructions: z.boolean().optional(),
  trace: TracePolicySchema.optional(),
  /** Grade this text instead of the reply (the run stays as context). */
  on: z.string().optional(),
};

const scaleFields = {
  /** 1 (default): scores 0..1; 10: scores 1..10 normalised by /10. */
  scale: z.union([z.literal(1), z.literal(10)]).optional(),
  /** Minimum on the assertion's own scale (`min: 7` with `scale: 10` means threshold 0.7). */
  min: z.number().nonnegative().optional(),
  /** Per-dimension minimums, on the assertion's own scale like `min` (`accuracy: 7` with `scale: 10` is 0.7). */
  dimensions: z.record(z.string(), z.number().nonnegative()).optional(),
};

/** `min` and dimension minimums are on the assertion's own scale: above it, the assertion could never pass. */
function minWithinScale(v: { min?: number; scale?: 1 | 10; dimensions?: Record<string, number> }, ctx: z.RefinementCtx): void {
  const scale = v.scale ?? 1;
  const over = (path: PropertyKey[], label: string, min: number) =>
    ctx.addIssue({ code: 'custom', path, message: `${label} ${min} is above the scale (${scale}); set scale: 10 or a minimum from 0 to ${scale}` });
  if (v.min !== undefined && v.min > scale) over(['min'], 'min', v.min);
  for (const [d, min] of Object.entries(v.dimensions ?? {})) if (min > scale) over(['dimensions', d], `dimension minimum ${d}:`, min);
}

/**
 * A free rubric may grade on named choices instead of a number (`{ excellent: 1, acceptable: 0.6,
 * poor: 0 }`): the judge picks one label, the map gives its score, the raw choice is recorded.
 */
const choicesField = {
  choices: z.record(z.string().regex(/^\S(.*\S)?$/, 'a choice label must be non-empty, without leading or trailing spaces'), z.number().min(0).max(1)).optional(),
};

/** Choices replace the numeric scale: a scale, a min on it, or dimensions scored on it cannot go with them. */
function choicesAlone(v: { choices?: Record<string, number>; scale?: 1 | 10; min?: number; dimensions?: Record<string, number> }, ctx: z.RefinementCtx): void {
  if (!v.choices) return;
  if (Object.keys(v.choices).length < 2) ctx.addIssue({ code: 'custom', path: ['choices'], message: 'give at least two choices, each with its score from 0 to 1' });
  for (const key of ['scale', 'min', 'dimensions'] as const) {
    if (v[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `${key} cannot be combined with choices (the choice map gives the score; use threshold)` });
  }
}

function rubricRules(v: Parameters<typeof minWithinScale>[0] & Parameters<typeof choicesAlone>[0], ctx: z.RefinementCtx): void {
  minWithinScale(v, ctx);
  choicesAlone(v, ctx);
}

export const judgeAssertionSchemas = [
  z
    .object({ type: z.literal('judge'), criteria: z.string().min(1), ...scaleFields, ...choicesField, ...judgeFields })
    .strict()
    .superRefine(rubricRules),
  z
    .object({ type: z.literal('judgeAgainst'), criteria: z.string().min(1), reference: z.string().optional(), ...scaleFields, ...choicesField, ...judgeFields })
    .strict()
    .superRefine(rubricRules),
  z.object({ type: z.literal('factuality'), reference: z.string().optional(), ...judgeFields }).strict(),
  z
    .object({ type: z.literal('summarizes'), source: z.string().min(1), ...scaleFields, ...judgeFields })
    .strict()
    .superRefine(minWithinScale),
  z.object({ type: z.literal('closedQa'), question: z.string().min(1), ...judgeFields }).strict(),
  z.object({ type: z.literal('sql'), reference: z.string().optional(), ...judgeFields }).strict(),
  z
    .object({
      type: z.literal('pairwise'),
      criteria: z.string().optional(),
      /** The other answer; defaults to the case reference. */
      comparedTo: z.string().optional(),
      prefer: z.enum(['actual', 'reference']).optional(),
      positionSwap: z.boolean().optional(),
      ...judgeFields,
    })
    .strict(),
] as const;

export type JudgeAssertionSpec = z.infer<(typeof judgeAssertionSchemas)[number]>;
export const judgeAssertionTypes: string[] = judgeAssertionSchemas.map((s) => s.shape.type.value);

export function isJudgeType(type: string): boolean {
  return judgeAssertionTypes.includes(type);
}

/** What a judged assertion that compares with a reference says when it has none. */
export function missingReferenceMessage(type: string): string {
  return type === 'pairwise'
    ? 'pairwise needs the other answer: set `comparedTo` on the assertion or `reference` on the case'
    : `${type} needs a reference: set \`reference\` on the assertion or the case`;
}

/**
 * Whether an assertion lacks the reference it compares with (its own, else the case's): known from
 * the file alone, so it is a load error rather than a failed trial.
 */
export function lacksReference(spec: { type: string; reference?: unknown; comparedTo?: unknown }, caseReference: unknown): boolean {
  if (caseReference !== undefined) return false;
  if (spec.type === 'pairwise') return spec.comparedTo === undefined;
  return ['factuality', 'judgeAgainst', 'sql'].includes(spec.type) && spec.reference === undefined;
}
