import { z } from 'zod';
import { BOUNDS, boundedNumber } from './bounds.js';

/**
 * `passAt: k` / `passHat: k` (or `{ k, min }`): a case's verdict from the pass@k or pass^k estimate of
 * its trials instead of from `passRate`. One schema for suites and cases; resolved in suite/case-reducer.ts.
 */
export type ReducerKind = 'passAt' | 'passHat';

export const DEFAULT_REDUCER_MIN = 0.5;

export const reducerSetting = (kind: ReducerKind) =>
  z
    .union([
      boundedNumber(BOUNDS.repeat),
      z
        .object({
          k: boundedNumber(BOUNDS.repeat),
          /** The case passes when the estimate is at least this (default 0.5: more likely than not). */
          min: z.number().gt(0).max(1).optional(),
        })
        .strict(),
    ])
    .meta({
      description:
        kind === 'passAt'
          ? 'pass@k: the case passes when the unbiased estimate of "at least one of k trials passes", over its N ≥ k trials, is at least `min` (default 0.5). Replaces `passRate` for the verdict.'
          : 'pass^k: the case passes when the unbiased estimate of "all k trials pass", over its N ≥ k trials, is at least `min` (default 0.5). Replaces `passRate` for the verdict.',
    });

export type ReducerSetting = number | { k: number; min?: number | undefined };

/** `passAt` / `passHat` as a case, its suite or the config gives them (at most one of the two). */
export interface ReducerDefaults {
  passAt?: ReducerSetting | undefined;
  passHat?: ReducerSetting | undefined;
}

/** A case's reducer, resolved: which estimate, over how many trials, against what threshold. */
export interface Reducer {
  kind: ReducerKind;
  k: number;
  min: number;
}

export const reducerOf = (kind: ReducerKind, s: ReducerSetting): Reducer => (typeof s === 'number' ? { kind, k: s, min: DEFAULT_REDUCER_MIN } : { kind, k: s.k, min: s.min ?? DEFAULT_REDUCER_MIN });
