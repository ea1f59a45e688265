import { InvalidArgumentError } from 'commander';
import { BOUNDS, describeBound, withinBound, type Bound } from '../core/bounds.js';

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
export const repeat = bounded(BOUNDS.repeat);
export const concurrency = bounded(BOUNDS.concurrency);
export const count = bounded(BOUNDS.count);
export const countOrZero = bounded(BOUNDS.countOrZero);
export const fraction = bounded(BOUNDS.fraction);
export const usd = bounded(BOUNDS.usd);

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
