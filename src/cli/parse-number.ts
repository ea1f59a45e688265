import { InvalidArgumentError } from 'commander';
import { BOUNDS, describeBound, withinBound, type Bound } from '../core/bounds.js';
import { ADAPTIVE_MAX, type RepeatSetting } from '../core/repeat-setting.js';

/** A commander parser for a flag in `bound`: outside it, commander names the flag and main exits 2. */
export const bounded =
  (bound: Bound) =>
  (value: string): number => {
    const n = value.trim() === '' ? NaN : Number(value);
    if (!withinBound(bound, n)) throw new InvalidArgumentError(`expected ${describeBound(bound)}`);
    return n;
  };

export const timeoutMs = bounded(BOUNDS.timeoutMs);
export const waitMs = bounded(BOUNDS.waitMs);
const trials = bounded(BOUNDS.repeat);
const adaptiveMax = bounded(ADAPTIVE_MAX);

/** `--repeat 5`, or `--repeat 3..20` for adaptive trials (`repeat: { min: 3, max: 20 }`). */
export const repeat = (value: string): RepeatSetting => {
  const range = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(value);
  if (!range) return trials(value);
  const min = trials(range[1]!);
  const max = adaptiveMax(range[2]!);
  if (min > max) throw new InvalidArgumentError(`expected min..max with min at most max, got ${min}..${max}`);
  return { min, max };
};
export const concurrency = bounded(BOUNDS.concurrency);
export const count = bounded(BOUNDS.count);
export const countOrZero = bounded(BOUNDS.countOrZero);
export const fraction = bounded(BOUNDS.fraction);
export const usd = bounded(BOUNDS.usd);
/** `--judge-noise K`: re-asks per sampled judged assertion. */
export const judgeNoise = bounded({ min: 1, max: 20, integer: true, why: 'each re-ask is a paid judge call' });

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
