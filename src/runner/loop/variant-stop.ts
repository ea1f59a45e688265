import type { AdaptiveRange } from '../../core/repeat-setting.js';
import { adaptiveSettled } from './adaptive-trials.js';
import { isDecided } from './verdict.js';

/** One case's variant as early stop sees it: its trials so far and what it needs. */
export interface VariantProgress {
  /** `adaptive`: settled by the adaptive rule (adaptive-trials.ts) instead of by its fixed count. */
  c: { repeat: number; passRate: number; adaptive?: AdaptiveRange | undefined };
  required: number;
  passes: number;
  /** Trials that ended (interrupted ones too): in-flight trials can still change the verdict. */
  ended: number;
}

/**
 * The variants of one case (its matrix values; a case outside a matrix is a group of one). Early
 * stop decides for the group, once per trial index: the first variant to reach index i decides
 * whether index i runs, for every variant. So variants run equal trial counts (a matrix compares
 * like with like), and a case's variants stop together once every one's verdict is settled.
 */
export interface VariantGroup<V extends VariantProgress = VariantProgress> {
  variants: V[];
  /** Trial indices below this were decided to run. */
  opened: number;
  /** The first index decided not to run; every later one is skipped too. */
  stoppedAt?: number;
}

export function variantGroup<V extends VariantProgress>(variants: V[]): VariantGroup<V> {
  return { variants, opened: 0 };
}

/** Whether trial `index` of a variant in `group` is skipped by early stop (the decision is recorded for the others). */
export function earlyStopsAt(group: VariantGroup, index: number): boolean {
  if (group.stoppedAt !== undefined && index >= group.stoppedAt) return true;
  if (index < group.opened) return false;
  const settled = group.variants.every((v) => (v.c.adaptive ? adaptiveSettled({ ...v.c, adaptive: v.c.adaptive }, v.passes, v.ended) : isDecided(v.passes, v.ended, v.c.repeat, v.required)));
  if (settled) {
    group.stoppedAt = index;
    return true;
  }
  group.opened = index + 1;
  return false;
}

/** The group a case's variants share: its suite and id (the matrix values left out). */
export const variantGroupKey = (c: { suite: string; id: string }): string => `${c.suite}\u0000${c.id}`;
