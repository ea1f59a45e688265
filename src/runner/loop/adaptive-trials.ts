import type { CaseResult } from '../../core/results-schema.js';
import type { AdaptiveRange } from '../../core/repeat-setting.js';
import { adaptiveStop } from '../../stats/adaptive.js';

/**
 * Adaptive trials in the runner (`repeat: { min, max }`). Early stop (variant-stop.ts) does the
 * stopping: an adaptive case is settled once the rule of src/stats/adaptive.ts says so. What this adds
 * is the rounds: the rule looks at N finished trials, so trial N (from `min` on) is not queued before
 * the trials below it have settled, for every variant of the case. The wait is outside the
 * concurrency slot, so a waiting trial holds no slot and other cases' trials go ahead.
 */

interface RoundState {
  c: { adaptive?: AdaptiveRange | undefined };
  settled: number;
}
interface Waiter {
  index: number;
  open: () => void;
}

const waiting = new WeakMap<object, Waiter[]>();

const roundDone = (variants: readonly RoundState[], index: number) => variants.every((v) => v.settled >= index);

/** Resolves once trial `index` of an adaptive case may be decided on (its earlier trials settled); undefined when it need not wait. */
export function roundOpen(group: { variants: readonly RoundState[] }, index: number): Promise<void> | undefined {
  const min = group.variants[0]?.c.adaptive?.min;
  if (min === undefined || index < min || roundDone(group.variants, index)) return undefined;
  return new Promise((open) => {
    const list = waiting.get(group) ?? [];
    list.push({ index, open });
    waiting.set(group, list);
  });
}

/** A trial of the group settled: open the rounds now complete. */
export function roundSettled(group: { variants: readonly RoundState[] }): void {
  const list = waiting.get(group);
  if (!list) return;
  const ready = list.filter((w) => roundDone(group.variants, w.index));
  if (ready.length === 0) return;
  waiting.set(
    group,
    list.filter((w) => !ready.includes(w)),
  );
  for (const w of ready) w.open();
}

/** Whether an adaptive case with `passes` of `ended` trials is settled (its rule stops it). */
export const adaptiveSettled = (c: { adaptive: AdaptiveRange; passRate: number }, passes: number, ended: number): boolean => adaptiveStop(passes, ended, c.passRate, c.adaptive) !== undefined;

export type AdaptiveOutcome = NonNullable<CaseResult['adaptive']>;

/**
 * How many trials an adaptive case used and why it stopped: the rule's own reason when it holds for
 * the trials that ran to a verdict, else the run's stop (budget, bail, interrupt).
 */
export function adaptiveOutcome(c: { adaptive: AdaptiveRange; passRate: number }, passes: number, used: number, notRunReason: CaseResult['notRunReason']): AdaptiveOutcome {
  const rule = adaptiveStop(passes, used, c.passRate, c.adaptive);
  const stoppedBy = rule ?? (notRunReason === undefined || notRunReason === 'early-stop' ? 'decided' : notRunReason);
  return { min: c.adaptive.min, max: c.adaptive.max, used, stoppedBy };
}
