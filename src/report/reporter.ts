import type { CaseIdentity } from '../core/case-identity.js';
import type { RedteamSummary } from '../core/redteam-schema.js';
import type { CaseResult, Comparison, RunInfo, RunProvenance, Summary, TrialResult } from '../core/results-schema.js';

/**
 * What a reporter learns of a case beside its result: plain read-only data, never the planner's
 * case with its target and check functions.
 */
export type CaseView = CaseIdentity;

export interface BeginInfo {
  runId: string;
  startedAt: string;
  config: string | null;
  cases: number;
  trials: number;
  concurrency: number;
  /** `--strict` / `strict: true`: a `scored` case fails the run, so reporters show it as a failure. */
  strict: boolean;
  /** `--resume`, `--retry-errors`, `--last-failed`: where the run's kept trials or chosen cases came from. */
  provenance?: RunProvenance;
  /** `--shard k/n`: this run is part `index` of `total` of its plan (`cases` and `trials` count this part). */
  shard?: { index: number; total: number };
}

export interface EndInfo {
  run: RunInfo;
  summary: Summary;
  exitCode: number;
  /** The run compared with a baseline (`--baseline`). */
  comparison?: Comparison;
  /** `agent-evals redteam`: attack success per plugin and target. */
  redteam?: RedteamSummary;
}

/**
 * One interface for every output, built-in or a user's module (see `ReporterModule`): the runner
 * emits events, reporters only consume them. Every hook is optional. None may hold every result: a
 * case's trials arrive with its end event. Payloads are deep-frozen (a write throws: that
 * reporter's failure) and have the run's secret values redacted. A hook that throws (or rejects)
 * is reported on stderr once; that reporter gets no further events, and the run carries on.
 */
export interface Reporter {
  /** Names the reporter when it fails (the CLI uses its `--reporter` name). */
  readonly name?: string;
  /** Once, before the first trial: the run's id, start time, and how many cases and trials it plans. Awaited. */
  onBegin?(info: BeginInfo): void | Promise<void>;
  /** After each trial, with its case: the trial's reply, assertions, score and usage. Not awaited. */
  onTrialEnd?(c: CaseView, trial: TrialResult): void;
  /** Once per planned case, when its last trial ended (or it was skipped): its result, trials included. Awaited. */
  onCaseEnd?(result: CaseResult, c: CaseView): void | Promise<void>;
  /** A warning of the run, in words (also in the summary's `warnings`). Not awaited. */
  onWarning?(message: string): void;
  /** Once, after the last case: the run's info, summary, exit code and any baseline comparison. Awaited before the process exits. */
  onEnd?(info: EndInfo): void | Promise<void>;
  /** The files it has written so far (absolute paths), for the terminal to name at the end. */
  written?(): readonly string[];
}

/** Every event hook, all present: what the runner talks to. */
export type ReporterEvents = Required<Omit<Reporter, 'name' | 'written'>>;
