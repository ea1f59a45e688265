import { DEFAULT_LOAD_TIMEOUT_MS } from '../suite/import-module.js';
import type { z } from 'zod';
import { DEFAULT_MAX_TRIALS } from '../core/bounds.js';
import type { ConfigSchema } from './schema.js';
import type { ReporterName } from '../report/registry.js';

type Config = z.output<typeof ConfigSchema>;
/** The config keys that have a default; the others (targets, MCP servers, judges, budgets, pricing) are unset until given. */
type DefaultedKey = Exclude<
  keyof Config,
  'targets' | 'mcpServers' | 'assertions' | 'judge' | 'judges' | 'maxCostUsd' | 'judgeMaxOutputChars' | 'pricing' | 'proxy' | 'passAt' | 'passHat' | 'embeddingModel' | 'redteam' | 'generate'
>;

/**
 * Every config key's default, in one place (the README's config table is written from this),
 * typed by the config schema itself: a default of the wrong type, or a new schema key left
 * without one, fails to compile. Command-line flags override these; evals.config.ts overrides
 * them too, flags win.
 */
export const DEFAULTS: Readonly<Required<Pick<Config, DefaultedKey>>> = {
  /** Globs (relative to the config file) that find eval files. */
  evals: ['evals/**/*.eval.{yaml,yml,ts}'],
  /** Trials in flight at once across the run. */
  concurrency: 8,
  /** Trials per case, or `{ min, max }` for adaptive trials (docs/guide/running.md, "Adaptive trials"). */
  repeat: 1,
  /** The most trials a run may plan (cases × repeat, each matrix value counted): more is exit 2 before the run starts. */
  maxTrials: DEFAULT_MAX_TRIALS,
  /** Fraction of trials that must pass. */
  passRate: 1,
  /** Per-trial timeout of the target; a slow trial is an error, the run goes on. */
  timeoutMs: 60_000,
  /** Where results, streamed trial records and the judge cache live. */
  outputDir: '.agent-evals',
  /** Reporters when none is given on the command line (`github` joins them on GitHub Actions). */
  reporters: ['terminal'],
  /**
   * How long each hook of a reporter module (`create()`, `onBegin`, `onTrialEnd`, `onCaseEnd`,
   * `onWarning`, `onEnd`), or of a reporter given to `evaluate().reporter()`, may take to settle: one
   * still pending then is dropped with a line naming it; the run, the other reporters and the
   * results go on. Built-in reporters are not bounded.
   */
  reporterTimeoutMs: 30_000,
  /**
   * Every `run` writes its results document (`<outputDir>/results.json`, or where `--json` says) and
   * its run folder, whatever the reporters, for `--resume`, `--last-failed`, `--retry-errors`. false
   * (or `--no-results`): only when a reporter asks for one.
   */
  results: true,
  /** What judges see of tool arguments and results. */
  trace: 'safe',
  /** Skip a trial's judges once one of its gates failed. */
  skipJudgesOnGateFailure: true,
  /** Ask judges about empty replies (off: an empty reply fails its judged assertions without a judge call). */
  judgeEmptyReplies: false,
  /** Warn when a judge grades its own model's or its own family's answers (self-preference). */
  selfJudgingWarning: true,
  /** Stop starting a case's trials once its verdict cannot change. */
  earlyStop: true,
  /** Reuse judge verdicts across runs from `<outputDir>/cache`. */
  cache: true,
  /** Send inference judges' calls through the providers' batch APIs (half price; verdicts once the batch ends). */
  judgeBatch: false,
  /** Upper bound of the judge cache on disk, in entries. */
  cacheMaxEntries: 50_000,
  /** A `scored` case (only soft assertions missed) fails the run, like `--strict`. */
  strict: false,
  /** A `flaky` case (passing and failing trials) fails the run, like `--fail-on-flaky`. */
  failOnFlaky: false,
  /** Severity of judged assertions that set none: `soft` misses make a case `scored`, `gate` misses fail it. */
  judgeSeverity: 'soft',
  /** Threshold of judged assertions that set none (pairwise keeps 1: only an outright win passes). */
  judgeThreshold: 0.7,
  /** Run folders (`<outputDir>/runs/<id>/`: the run's cases, plan and results document) kept; a run removes the oldest beyond it. History and the estimate read them. */
  keepRuns: 50,
  /** How long importing a config or `*.eval.ts` file may take (a top-level await that never settles). */
  loadTimeoutMs: DEFAULT_LOAD_TIMEOUT_MS,
};

/**
 * The reporters of a run that chose none (no `--reporter`, no config `reporters`): the default, and
 * on GitHub Actions (`GITHUB_ACTIONS=true`) its annotations and job summary too.
 */
export function defaultReporters(env: NodeJS.ProcessEnv): string[] {
  const github: ReporterName = 'github';
  return env.GITHUB_ACTIONS === 'true' ? [...DEFAULTS.reporters, github] : [...DEFAULTS.reporters];
}

/** Defaults of run settings that are not config keys. */
export const RUN_DEFAULTS = {
  /** How long in-flight trials may finish after Ctrl-C before they are aborted. */
  interruptGraceMs: 2_000,
};

export const CONFIG_FILE_NAMES = ['evals.config.ts', 'evals.config.mts', 'evals.config.js', 'evals.config.mjs'];
/** Those names as help texts give them: `evals.config.{ts,mts,js,mjs}`. */
export const CONFIG_FILES_HELP = `evals.config.{${CONFIG_FILE_NAMES.map((name) => name.slice('evals.config.'.length)).join(',')}}`;
