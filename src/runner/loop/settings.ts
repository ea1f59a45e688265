import type { JudgeSettings } from '../../judges/settings.js';
import type { PriceOverrides } from '../../providers/pricing.js';
import type { ProxySetting } from '../../providers/proxy.js';
import type { TargetConfig } from '../../targets/config-schema.js';
import type { McpServerConfig } from '../../targets/mcp-server-schema.js';
import type { UserAssertions } from '../../assertions/user-assertion.js';

/**
 * Everything a run is set to: flags over the config file over the defaults, merged once by
 * config/run-settings.ts and frozen there. The runner receives it and never reads the config or the
 * flags itself; targets and judges get their share (environment, pricing, the run's limiters) from
 * the runner. Read-only all the way: an entrance that wants another value (no early stop for a
 * compared run, `evaluate()`'s judge object) says so before the one resolution, never after.
 */
export interface RunSettings {
  /** The config file's folder (or the working directory): relative paths resolve against it. */
  readonly rootDir: string;
  /** The config file, relative to the working directory; null when running on defaults. */
  readonly configFile: string | null;
  /** The environment targets and judges read their keys and variables from. */
  readonly env: Readonly<NodeJS.ProcessEnv>;
  /** How long a user module's import may take (an isolated target's worker imports the config again). */
  readonly loadTimeoutMs?: number;
  readonly targets: Readonly<Record<string, TargetConfig>>;
  /** The config's MCP servers by name; a run starts those its targets use. */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
  readonly judging: Readonly<JudgeSettings>;
  /** Trials in flight at once; also the ceiling of every provider endpoint's limiter. */
  readonly concurrency: number;
  readonly earlyStop: boolean;
  readonly strict: boolean;
  /** A `flaky` case (passing and failing trials) fails the run (`--fail-on-flaky`). */
  readonly failOnFlaky: boolean;
  /** Stop starting trials after this many failed cases (`--bail` is 1). */
  readonly bail?: number;
  readonly maxCostUsd?: number;
  /** Where the budget came from, for its warnings: `--max-cost` or the config's `maxCostUsd`. */
  readonly budgetField: { readonly file?: string; readonly field: string };
  readonly minScore?: number;
  readonly minPassRate?: number;
  /** Model targets answer without calling their model (`--dry-run`). */
  readonly dryRun: boolean;
  readonly skipJudgesOnGateFailure: boolean;
  /** Ask judges about empty replies too (else they fail unasked). */
  readonly judgeEmptyReplies: boolean;
  /** How long in-flight trials may finish after Ctrl-C before they are aborted. */
  readonly interruptGraceMs: number;
  /** The config's `proxy` (model specs and HTTP targets may set their own); unset: the environment's. */
  readonly proxy?: ProxySetting;
  /** USD per 1M tokens over the bundled table (the config's `pricing`). */
  readonly pricing: Readonly<PriceOverrides>;
  /** The config's user assertions: what a `userAssertion` spec of this run's cases runs (its own, not another run's in the process). */
  readonly userAssertions: UserAssertions;
}
