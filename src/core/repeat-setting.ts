import { z } from 'zod';
import { BOUNDS, boundedNumber, type Bound } from './bounds.js';

/**
 * `repeat`: a trial count, or `{ min, max }` for adaptive trials (a case runs `min`, then more until its
 * verdict is decided or `max`; src/stats/adaptive.ts). One schema for the config, suites and cases.
 */
export type RepeatSetting = number | AdaptiveRange;
export interface AdaptiveRange {
  min: number;
  max: number;
}

/** Adaptive `max`: the stopping rule is calibrated over every path of passes and fails up to it (max² steps). */
export const ADAPTIVE_MAX: Bound = { min: 1, max: 1_000, integer: true, why: 'adaptive trials are calibrated over every path up to max' };

export const repeatSetting = () =>
  z.union([
    boundedNumber(BOUNDS.repeat),
    z
      .object({ min: boundedNumber(BOUNDS.repeat).max(ADAPTIVE_MAX.max), max: boundedNumber(ADAPTIVE_MAX) })
      .strict()
      .refine((r) => r.min <= r.max, { message: '"min" is more than "max"', path: ['min'] })
      .meta({ description: 'Adaptive trials: run `min`, then one round at a time until the pass rate is decided against `passRate` or `max` trials ran.' }),
  ]);

/** The most trials a case may run: the count, or an adaptive range's `max`. */
export const maxTrials = (r: RepeatSetting): number => (typeof r === 'number' ? r : r.max);

/** The adaptive range of a setting, if it is one. */
export const adaptiveRange = (r: RepeatSetting): AdaptiveRange | undefined => (typeof r === 'number' ? undefined : { min: r.min, max: r.max });
