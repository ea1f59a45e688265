import type { JudgeSettings } from '../judges/settings.js';
import type { PriceOverrides } from '../providers/pricing.js';
import type { TargetConfig } from '../targets/config-schema.js';

/**
 * Everything a run is set to: flags over the config file over the defaults, merged once by
 * config/run-settings.ts. The runner receives it and never reads the config or the flags itself;
 * targets and judges get their share (environment, pricing, the run's limiters) from the runner.
 */
export interface RunSettings {
  /** The config file's folder (or the working directory): relative paths resolve against it. */
  rootDir: string;
  /** The config file, relative to the working directory; null when running on defaults. */
  configFile: string | null;
  /** The environment targets and judges read their keys and variables from. */
  env: NodeJS.ProcessEnv;
  /** How long a user module's import may take (an isolated target's worker imports the config again). */
  loadTimeoutMs?: number;
  targets: Record<string, TargetConfig>;
  judging: JudgeSettings;
  /** Trials in flight at once; also the ceiling of every provider endpoint's limiter. */
  concurrency: number;
  earlyStop: boolean;
  strict: boolean;
  /** A `flaky` case (passing and failing trials) fails the run (`--fail-on-flaky`). */
  failOnFlaky: boolean;
  /** Stop starting trials after this many failed cases (`--bail` is 1). */
  bail?: number;
  maxCostUsd?: number;
  /** Where the budget came from, for its warnings: `--max-cost` or the config's `maxCostUsd`. */
  budgetField: { file?: string; field: string };
  minScore?: number;
  minPassRate?: number;
  /** `--timeout`: every trial's target timeout, over what the case or its file says. */
  timeoutMs?: number;
  /** Model targets answer without calling their model (`--dry-run`). */
  dryRun: boolean;
  skipJudgesOnGateFailure: boolean;
  /** Ask judges about empty replies too (else they fail unasked). */
  judgeEmptyReplies: boolean;
  /** How long in-flight trials may finish after Ctrl-C before they are aborted. */
  interruptGraceMs: number;
  /** USD per 1M tokens over the bundled table (the config's `pricing`). */
  pricing: PriceOverrides;
}
