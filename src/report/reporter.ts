import type { CaseResult, RunInfo, Summary, TrialResult } from './results-schema.js';
import type { PlannedCase } from '../suite/plan.js';

export interface BeginInfo {
  runId: string;
  startedAt: string;
  config: string | null;
  cases: number;
  trials: number;
  concurrency: number;
  /** `--strict` / `strict: true`: a `scored` case fails the run, so reporters show it as a failure. */
  strict: boolean;
}

export interface EndInfo {
  run: RunInfo;
  summary: Summary;
  exitCode: number;
}

/**
 * One interface for every output: the runner emits events, reporters
 * only consume them. None may hold every result: a case's trials arrive with its end event.
 */
export interface Reporter {
  /** Names the reporter when it fails (the CLI uses its `--reporter` name). */
  readonly name?: string;
  onBegin?(info: BeginInfo): void | Promise<void>;
  onTrialEnd?(c: PlannedCase, trial: TrialResult): void;
  onCaseEnd?(result: CaseResult, c: PlannedCase): void | Promise<void>;
  onWarning?(message: string): void;
  onEnd?(info: EndInfo): void | Promise<void>;
}

/** Every event hook, all present: what the runner talks to. */
export type ReporterEvents = Required<Omit<Reporter, 'name'>>;
