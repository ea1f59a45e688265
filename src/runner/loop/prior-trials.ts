import type { TrialResult } from '../../core/results-schema.js';
import type { StopReason } from './stop-reason.js';

/**
 * What a run keeps of one case from a recording instead of running it (`run --resume`,
 * `run --retry-errors`): recorded trials served as they are (grades, judge results, usage and cost;
 * no target or judge is called for them), and whether the trials not kept run.
 */
export interface PriorCase {
  /** The recorded trials kept, by trial index. */
  trials: ReadonlyMap<number, TrialResult>;
  /** Set: the trials not kept stay not run, for this reason (the recorded case was finished). Unset: they run. */
  notRunReason?: StopReason;
}

/** The kept trials of a run, by case key (`suite/id` with its matrix values); runner/resume/kept-trials.ts picks them. */
export type PriorTrials = ReadonlyMap<string, PriorCase>;
