import { z } from 'zod';
import { UsageSchema } from '../core/usage.js';
import { CALIBRATION_TYPES, isRubricType } from './calibration-types.js';

export const CalibrationCriterionSchema = z
  .object({
    type: z.enum(CALIBRATION_TYPES),
    /** The rubric (judge, judgeAgainst) or the question (closedQa). */
    criteria: z.string().optional(),
    /** 10: the rubric is scored 1..10 and human scores are on 0..10; else everything is on 0..1. */
    scale: z.union([z.literal(1), z.literal(10)]),
  })
  .strict();
export type CalibrationCriterion = z.infer<typeof CalibrationCriterionSchema>;

/** The scale judge and human scores are on: the rubric's, else 0..1. */
export const scaleOf = (c: CalibrationCriterion): 1 | 10 => (isRubricType(c.type) ? c.scale : 1);

const Verdict = z.enum(['pass', 'fail']);
/** Undefined statistics (κ when both raters gave one verdict only, a correlation of a constant) are null. */
const Stat = z.number().nullable();

export const CalibratedRowSchema = z
  .object({
    id: z.string(),
    line: z.number().int().positive(),
    humanScore: z.number().optional(),
    humanVerdict: Verdict.optional(),
    /** On the calibration's scale; null when the judgment failed. */
    judgeScore: z.number().nullable(),
    judgeVerdict: Verdict.nullable(),
    reason: z.string(),
    /** Why the judgment failed (the row counts in no statistic). */
    error: z.string().optional(),
    cached: z.literal(true).optional(),
  })
  .strict();
export type CalibratedRow = z.infer<typeof CalibratedRowSchema>;

/** What `agent-evals calibrate` prints and writes (`.agent-evals/calibration.json`). */
export const CalibrationSchema = z
  .object({
    /** Changes keep 1 while they only add fields. */
    version: z.literal(1),
    file: z.string(),
    /** `provider:model` of the judge that answered. */
    judge: z.string(),
    criterion: CalibrationCriterionSchema,
    /** A judge score (0..1) at or above it is a pass. */
    threshold: z.number(),
    /** Labelled rows, rows judged, rows whose judgment failed, and the lines skipped for lack of labels. */
    rows: z.number().int().nonnegative(),
    judged: z.number().int().nonnegative(),
    judgeErrors: z.number().int().nonnegative(),
    skippedLines: z.array(z.number().int().positive()),
    scores: z
      .object({
        rows: z.number().int().positive(),
        exactAgreement: Stat,
        /** ±1 on the 10-point scale, ±0.1 on 0..1. */
        tolerance: z.number(),
        withinTolerance: Stat,
        meanAbsoluteError: Stat,
        spearman: Stat,
      })
      .strict()
      .nullable(),
    verdicts: z
      .object({
        rows: z.number().int().positive(),
        accuracy: Stat,
        kappa: Stat,
        truePositiveRate: Stat,
        trueNegativeRate: Stat,
        confusionMatrix: z.object({ truePositive: z.number().int(), falsePositive: z.number().int(), falseNegative: z.number().int(), trueNegative: z.number().int() }).strict(),
      })
      .strict()
      .nullable(),
    /** The threshold (0..1) that maximises κ against the human verdicts; null without verdicts or a defined κ. */
    thresholdAdvice: z.object({ threshold: z.number(), kappa: z.number() }).strict().nullable(),
    /** At most ten rows, the largest disagreement first: verdicts that differ, then by score distance. */
    worstDisagreements: z.array(CalibratedRowSchema),
    usage: UsageSchema,
    cachedRows: z.number().int().nonnegative(),
    results: z.array(CalibratedRowSchema),
  })
  .strict();
export type Calibration = z.infer<typeof CalibrationSchema>;
