import type { MatrixValues } from '../core/matrix.js';
import type { CaseResult, Comparison, RunInfo, Summary, TrialResult } from '../core/results-schema.js';

/**
 * What a reporter learns of a case beside its result: plain read-only data, never the planner's
 * case with its target and check functions.
 */
export interface CaseView {
  readonly index: number;
  /** `suite/id`. */
  readonly key: string;
  readonly suite: string;
  readonly id: string;
  readonly file: string;
  readonly line: number | null;
  readonly tags: readonly string[];
  readonly targetName: string;
  /** The matrix values the case runs with; part of `key`. */
  readonly matrix?: Readonly<MatrixValues>;
  readonly repeat: number;
}

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
  /** The run compared with a baseline (`--baseline`). */
  comparison?: Comparison;
}

/**
 * One interface for every output: the runner emits events, reporters
 * only consume them. None may hold every result: a case's trials arrive with its end event.
 */
export interface Reporter {
  /** Names the reporter when it fails (the CLI uses its `--reporter` name). */
  readonly name?: string;
  onBegin?(info: BeginInfo): void | Promise<void>;
  onTrialEnd?(c: CaseView, trial: TrialResult): void;
  onCaseEnd?(result: CaseResult, c: CaseView): void | Promise<void>;
  onWarning?(message: string): void;
  onEnd?(info: EndInfo): void | Promise<void>;
  /** The files it has written so far (absolute paths), for the terminal to name at the end. */
  written?(): readonly string[];
}

/** Every event hook, all present: what the runner talks to. */
export type ReporterEvents = Required<Omit<Reporter, 'name' | 'written'>>;
