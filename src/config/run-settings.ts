import type { RunSettings } from '../runner/loop/settings.js';
import { RUN_DEFAULTS } from './defaults.js';
import type { ResolvedConfig } from './load-config.js';
import { RESULTS_REPORTER } from '../report/registry.js';

/** The command-line flags that set a run (commander's names; `--no-x` flags arrive as `x: false`). */
export interface RunFlags {
  readonly concurrency?: number;
  readonly earlyStop?: boolean;
  readonly strict?: boolean;
  readonly failOnFlaky?: boolean;
  readonly bail?: boolean;
  readonly maxFailures?: number;
  readonly maxCost?: number;
  readonly minScore?: number;
  readonly minPassRate?: number;
  readonly judge?: string;
  readonly dryRun?: boolean;
  readonly cache?: boolean;
  readonly judgeBatch?: boolean;
  /** `--judge-noise K`. */
  readonly judgeNoise?: number;
  readonly reporter?: readonly string[];
  readonly json?: string | true;
  readonly silent?: boolean;
  /** `--no-results`: no results document unless a reporter asks for one (config `results`). */
  readonly results?: boolean;
}

/**
 * The one merge of a run's settings: each is the flag if given, else the config's key, else its
 * default (already applied to `config` by resolveConfig). Nothing below config/ merges again, and
 * nothing changes the result: it is frozen (its nested records too), so an entrance that wants
 * another value puts it in `flags` before this call.
 */
export function resolveRunSettings(config: ResolvedConfig, flags: RunFlags, env: NodeJS.ProcessEnv): RunSettings {
  const file = config.file ?? undefined;
  const budgetFromFlag = flags.maxCost !== undefined;
  const maxCostUsd = flags.maxCost ?? config.maxCostUsd;
  const bail = flags.maxFailures ?? (flags.bail ? 1 : undefined);
  return Object.freeze({
    rootDir: config.rootDir,
    configFile: config.file,
    env,
    loadTimeoutMs: config.loadTimeoutMs,
    targets: Object.freeze({ ...config.targets }),
    mcpServers: Object.freeze({ ...config.mcpServers }),
    judging: Object.freeze({
      rootDir: config.rootDir,
      judge: config.judge,
      judgeFromEnv: config.judgeFromEnv,
      judges: Object.freeze({ ...config.judges }),
      ...(flags.judge !== undefined ? { override: flags.judge } : {}),
      dryRun: flags.dryRun === true,
      cache: flags.cache !== false && config.cache,
      outputDir: config.outputDir,
      cacheMaxEntries: config.cacheMaxEntries,
      trace: config.trace,
      judgeMaxOutputChars: config.judgeMaxOutputChars,
      batch: flags.judgeBatch ?? config.judgeBatch,
      ...(flags.judgeNoise ? { noise: flags.judgeNoise } : {}),
      selfJudgingWarning: config.selfJudgingWarning,
      ...(config.embeddingModel !== undefined ? { embeddingModel: config.embeddingModel } : {}),
    }),
    concurrency: flags.concurrency ?? config.concurrency,
    // --no-early-stop can only turn it off; the config's `earlyStop: false` does too.
    earlyStop: flags.earlyStop !== false && config.earlyStop,
    strict: flags.strict ?? config.strict,
    failOnFlaky: flags.failOnFlaky ?? config.failOnFlaky,
    ...(bail !== undefined ? { bail } : {}),
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    budgetField: Object.freeze(budgetFromFlag ? { field: '--max-cost' } : { ...(file ? { file } : {}), field: 'maxCostUsd' }),
    ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
    ...(flags.minPassRate !== undefined ? { minPassRate: flags.minPassRate } : {}),
    dryRun: flags.dryRun === true,
    skipJudgesOnGateFailure: config.skipJudgesOnGateFailure,
    judgeEmptyReplies: config.judgeEmptyReplies,
    interruptGraceMs: RUN_DEFAULTS.interruptGraceMs,
    pricing: Object.freeze({ ...config.pricing }),
    ...(config.proxy !== undefined ? { proxy: config.proxy } : {}),
    userAssertions: config.userAssertions,
  });
}

/**
 * The run's reporters: `--reporter` (else the config's `reporters`), `--json` on top, and the
 * terminal always unless `--silent` (which removes it whatever else asked for it).
 */
export function reporterSpecs(config: Pick<ResolvedConfig, 'reporters'>, flags: Pick<RunFlags, 'reporter' | 'json' | 'silent'>): string[] {
  const specs = [...(flags.reporter ?? config.reporters)];
  if (flags.json !== undefined) specs.push(flags.json === true ? RESULTS_REPORTER : `${RESULTS_REPORTER}=${flags.json}`);
  if (!flags.silent && !specs.includes('terminal')) specs.unshift('terminal');
  return flags.silent ? specs.filter((s) => s !== 'terminal') : specs;
}
