import type { TracePolicy } from '../core/judge-port.js';
import type { JudgeRef, SingleJudgeRef } from './resolve.js';

/**
 * What the judges of one run are set to, resolved from flags, config and defaults by config/
 * (the only place settings are merged). The run adds pricing, warnings, environment and limiters.
 */
export interface JudgeSettings {
  /** Paths in a judge spec (a fake judge's fixtures) resolve against it: the config file's folder. */
  rootDir: string;
  /** The config's `judge`, or the one EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL name. */
  judge: JudgeRef | undefined;
  /** `judge` came from the environment, not the config file (named so in errors). */
  judgeFromEnv: boolean;
  /** The config's named judges, for `judge: <name>`. */
  judges: Record<string, SingleJudgeRef>;
  /** `--judge provider:model`: one judge for the whole run. */
  override?: JudgeRef;
  /** `--dry-run`: every judge is the fake one; zero tokens. */
  dryRun: boolean;
  /** Judge verdicts shared between repeats and kept on disk (off with `--no-cache` or `cache: false`). */
  cache: boolean;
  /** The disk cache lives under `<outputDir>/cache`. */
  outputDir: string;
  cacheMaxEntries: number;
  trace: TracePolicy;
  /** Longest output a judge grades (default in graded-output.ts). */
  judgeMaxOutputChars: number | undefined;
  /** `--judge-batch`: inference judges go through the providers' batch APIs, at the batch price. */
  batch: boolean;
  /** `--judge-noise K`: each judged assertion of a sampled trial is asked K more times, cache off (judge-noise.ts). */
  noise?: number;
  /** `similarTo`'s embedding model where an assertion names none (config `embeddingModel`; `fake` is the offline one). */
  embeddingModel?: string;
  /** Warn when a judge grades its own model's or its own family's answers (off: `selfJudgingWarning: false`). */
  selfJudgingWarning: boolean;
}
