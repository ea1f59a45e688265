import { z } from 'zod';
import type { SchemasOf } from '../core/schema-tuple.js';
import { assertionCommonFields } from '../assertions/types.js';
import { ModelRefSchema, type ModelRef } from '../providers/model-ref.js';
import { TracePolicySchema } from '../core/judge-port.js';
import { groundingContextSchema } from './grounding-context.js';
import { AssertionJudgeSchema } from './panel-spec.js';

// A judge as written in files (a model reference); targets take the same, so it lives in providers/.
export { ModelRefSchema, type ModelRef };

/** Fields every judged assertion accepts on top of the common ones. */
const judgeFields = {
  ...assertionCommonFields,
  /** Judge for this assertion only (highest in the resolution order), or a panel of judges. */
  judge: AssertionJudgeSchema.optional(),
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

/**
 * How a judged assertion uses a reference answer: `none`; `context` (the case's, shown if there is
 * one); `required` (its own `reference`, else the case's; neither is a load error); `comparedTo`
 * (pairwise: its `comparedTo`, else the case's reference).
 */
export type ReferenceUse = 'none' | 'context' | 'required' | 'comparedTo';

type TypedSchema = z.ZodObject<{ type: z.ZodLiteral<string> } & z.ZodRawShape>;

/** One judged assertion type: its eval-file schema, how it uses a reference, and a line for the docs. */
export interface JudgedAssertionDescriptor<Sc extends TypedSchema = TypedSchema> {
  schema: Sc;
  reference: ReferenceUse;
  summary: string;
  /**
   * `agent-evals calibrate --type` can judge labelled rows with it (one output a row: not pairwise).
   * `criteria` is the field `--criteria` fills (absent: it takes none); `--scale 10` applies when its
   * schema has `scale`.
   */
  calibration?: { criteria?: 'criteria' | 'question' };
}

/** Keeps each descriptor's precise type (its schema's, whether it calibrates), so the registry can hand `z.discriminatedUnion` a typed tuple. */
function judged<const D extends JudgedAssertionDescriptor>(d: D): D {
  return d;
}

/**
 * The judged assertion types, one descriptor each. The schema union, the type names, the reference
 * rules and the docs summary are derived from this list; the criterion each asks is criterion-from-spec.ts.
 */
export const JUDGED_ASSERTIONS = [
  judged({
    schema: z
      .object({ type: z.literal('judge'), criteria: z.string().min(1), ...scaleFields, ...choicesField, ...judgeFields })
      .strict()
      .superRefine(rubricRules),
    reference: 'context',
    summary: 'An LLM judge grades the reply against a free rubric (`criteria`).',
    calibration: { criteria: 'criteria' },
  }),
  judged({
    schema: z
      .object({ type: z.literal('judgeAgainst'), criteria: z.string().min(1), reference: z.string().optional(), ...scaleFields, ...choicesField, ...judgeFields })
      .strict()
      .superRefine(rubricRules),
    reference: 'required',
    summary: 'An LLM judge grades the reply against a rubric, with a reference answer as the expected one.',
    calibration: { criteria: 'criteria' },
  }),
  judged({
    schema: z.object({ type: z.literal('factuality'), reference: z.string().optional(), ...judgeFields }).strict(),
    reference: 'required',
    summary: 'An LLM judge compares the facts of the reply with a reference answer.',
    calibration: {},
  }),
  judged({
    schema: z
      .object({ type: z.literal('summarizes'), source: z.string().min(1), ...scaleFields, ...judgeFields })
      .strict()
      .superRefine(minWithinScale),
    reference: 'none',
    summary: 'An LLM judge grades the reply as a summary of `source`.',
  }),
  judged({
    schema: z.object({ type: z.literal('closedQa'), question: z.string().min(1), ...judgeFields }).strict(),
    reference: 'none',
    summary: 'An LLM judge answers a yes/no `question` about the reply.',
    calibration: { criteria: 'question' },
  }),
  judged({
    schema: z.object({ type: z.literal('sql'), reference: z.string().optional(), ...judgeFields }).strict(),
    reference: 'required',
    summary: 'An LLM judge checks that the reply is SQL equivalent to a reference query.',
    calibration: {},
  }),
  judged({
    schema: z
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
    reference: 'comparedTo',
    summary: 'An LLM judge picks the better of the reply and another answer (`comparedTo`, else the case reference).',
  }),
  judged({
    schema: z.object({ type: z.literal('faithfulness'), context: groundingContextSchema, ...judgeFields }).strict(),
    reference: 'none',
    summary: "An LLM judge checks that every claim of the reply is supported by the retrieved `context` (a tool's results, or given).",
  }),
  judged({
    schema: z.object({ type: z.literal('contextRelevance'), context: groundingContextSchema, ...judgeFields }).strict(),
    reference: 'none',
    summary: "An LLM judge grades how relevant the retrieved `context` (a tool's results, or given) is to the input.",
  }),
  judged({
    schema: z.object({ type: z.literal('answerRelevance'), ...judgeFields }).strict(),
    reference: 'none',
    summary: 'An LLM judge grades how directly the reply addresses the input.',
  }),
] as const;

/** The zod objects, as a typed tuple, for the eval-file schema's union. */
export const judgeAssertionSchemas = JUDGED_ASSERTIONS.map((d) => d.schema) as SchemasOf<typeof JUDGED_ASSERTIONS>;

export type JudgeAssertionSpec = z.infer<(typeof judgeAssertionSchemas)[number]>;
export const judgeAssertionTypes: string[] = judgeAssertionSchemas.map((s) => s.shape.type.value);

const referenceUse: ReadonlyMap<string, ReferenceUse> = new Map(JUDGED_ASSERTIONS.map((d) => [d.schema.shape.type.value, d.reference]));

export function isJudgeType(type: string): boolean {
  return referenceUse.has(type);
}

/** What a judged assertion that compares with a reference says when it has none. */
export function missingReferenceMessage(type: string): string {
  return referenceUse.get(type) === 'comparedTo'
    ? `${type} needs the other answer: set \`comparedTo\` on the assertion or \`reference\` on the case`
    : `${type} needs a reference: set \`reference\` on the assertion or the case`;
}

/**
 * Whether an assertion lacks the reference it compares with (its own, else the case's): known from
 * the file alone, so it is a load error rather than a failed trial.
 */
export function lacksReference(spec: { type: string; reference?: unknown; comparedTo?: unknown }, caseReference: unknown): boolean {
  if (caseReference !== undefined) return false;
  const use = referenceUse.get(spec.type);
  if (use === 'comparedTo') return spec.comparedTo === undefined;
  return use === 'required' && spec.reference === undefined;
}
