import type { RepeatSetting } from '../core/repeat-setting.js';
import type { ReducerDefaults } from '../core/reducer-setting.js';
import { existsSync } from 'node:fs';
import { dirname, resolve, relative } from 'node:path';
import { UserError, UserErrors } from '../core/errors.js';
import { PARSE_ONCE } from '../core/parse-once.js';
import { formatPath } from '../suite/zod-issues.js';
import { unknownFieldsMessage } from '../core/closest-name.js';
import { fieldsAt } from '../suite/schema-fields.js';
import { CONFIG_FILE_NAMES, DEFAULTS, defaultReporters } from './defaults.js';
import { parseReporterSpec } from '../report/reporter-spec.js';
import { importUserModule } from '../suite/import-module.js';
import { defaultExportProblem } from '../suite/default-export.js';
import { loadUserAssertions } from '../suite/load-user-assertions.js';
import { NO_USER_ASSERTIONS, userAssertionsByName, type UserAssertions } from '../assertions/user-assertion.js';
import { ConfigSchema, type ConfigInput, type TargetConfig } from './schema.js';
import { judgeEnvProblem, judgeFromEnv } from './env.js';
import { describeTargetIssue } from './target-issues.js';
import { checkTargetModels } from './target-model-check.js';
import { describeJudgeIssue } from './judge-issues.js';
import { judgeRefProblem } from '../judges/judge-ref-check.js';
import type { Judge } from '../core/judge-port.js';
import type { McpServerConfig } from '../targets/mcp-server-schema.js';

/** The config with every default applied; paths resolve against `rootDir`. */
export interface ResolvedConfig {
  readonly rootDir: string;
  /** The config file, relative to the working directory; null when running on defaults. */
  readonly file: string | null;
  readonly evals: readonly string[];
  readonly targets: Readonly<Record<string, TargetConfig>>;
  /** The config's MCP servers by name (a target names them in its `mcpServers`). */
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  /** A judge object (`agentJudge(...)`, `evaluate().useJudge(judge)`) is kept as it is by the schema, not copied. */
  readonly judge: ConfigInput['judge'] | Judge | undefined;
  /** `judge` came from EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL, not the config file. */
  readonly judgeFromEnv: boolean;
  readonly judges: Readonly<NonNullable<ConfigInput['judges']>>;
  readonly concurrency: number;
  readonly repeat: RepeatSetting;
  /** The most trials a run may plan; more is exit 2 before the run starts. */
  readonly maxTrials: number;
  readonly passRate: number;
  /** `passAt` / `passHat`: every case's reducer unless its suite or it sets one. */
  readonly reducers: ReducerDefaults;
  readonly timeoutMs: number;
  readonly loadTimeoutMs: number;
  readonly outputDir: string;
  readonly reporters: readonly string[];
  /** How long each hook of a reporter module may take (config `reporterTimeoutMs`). */
  readonly reporterTimeoutMs: number;
  /** Every run writes its results document and run folder (config `results`). */
  readonly results: boolean;
  /** Modules of user assertions, relative to `rootDir` (loaded by `loadConfig`). */
  readonly assertions: readonly string[];
  /** The user assertions those modules export, by name: this config's own, never another run's. */
  readonly userAssertions: UserAssertions;
  readonly trace: 'safe' | 'full';
  readonly skipJudgesOnGateFailure: boolean;
  readonly judgeEmptyReplies: boolean;
  readonly selfJudgingWarning: boolean;
  /** `similarTo`'s embedding model where an assertion names none. */
  readonly embeddingModel: string | undefined;
  readonly earlyStop: boolean;
  readonly cache: boolean;
  readonly judgeBatch: boolean;
  readonly cacheMaxEntries: number;
  readonly maxCostUsd: number | undefined;
  readonly strict: boolean;
  readonly failOnFlaky: boolean;
  readonly judgeSeverity: 'soft' | 'gate';
  readonly judgeThreshold: number;
  /** Longest output a judge grades (default in judges/graded-output.ts). */
  readonly judgeMaxOutputChars: number | undefined;
  /** Run folders (`<outputDir>/runs/<id>/`) kept: a run removes the oldest beyond this many. */
  readonly keepRuns: number;
  readonly pricing: Readonly<NonNullable<ConfigInput['pricing']>>;
  /** The config's `proxy`: a URL, false (direct), or unset (the environment's proxy variables). */
  readonly proxy: ConfigInput['proxy'];
  /** `agent-evals redteam`'s settings (config `redteam`); empty when unset. */
  readonly redteam: Readonly<NonNullable<ConfigInput['redteam']>>;
  /** `agent-evals generate`'s settings (config `generate`); empty when unset. */
  readonly generate: Readonly<NonNullable<ConfigInput['generate']>>;
}

/** `loadTimeoutMs` (--load-timeout) bounds the config's own import and wins over the config's key. */
export async function loadConfig(opts: { cwd: string; configPath?: string; env?: NodeJS.ProcessEnv; loadTimeoutMs?: number }): Promise<ResolvedConfig> {
  const env = opts.env ?? process.env;
  const file = opts.configPath ? resolve(opts.cwd, opts.configPath) : CONFIG_FILE_NAMES.map((n) => resolve(opts.cwd, n)).find((f) => existsSync(f));
  if (opts.configPath && (!file || !existsSync(file))) throw new UserError(`config file not found: ${opts.configPath}`);
  const display = file ? relative(opts.cwd, file) || file : null;

  const user: ConfigInput = file ? parseUserConfig(await importUserModule(file, display ?? file, opts.loadTimeoutMs), display ?? file) : {};
  // --load-timeout wins over the config's key: given to the one resolution, not set after it.
  const resolved = { ...user, ...(opts.loadTimeoutMs !== undefined ? { loadTimeoutMs: opts.loadTimeoutMs } : {}) };
  const rootDir = file ? dirname(file) : opts.cwd;
  // The environment names the judge only when the config names none: a half-set pair is then bad input.
  const envProblem = resolved.judge === undefined ? judgeEnvProblem(env) : undefined;
  if (envProblem) throw new UserError(envProblem);
  checkJudgeRefs(resolveConfig(resolved, rootDir, display, env), display ?? undefined);
  checkTargetModels(resolved.targets ?? {}, display ?? undefined);
  // Loaded before any eval file: their `- type: <name>` entries are resolved against these.
  const assertions = await loadUserAssertions(resolved.assertions ?? [], rootDir, display ?? undefined, resolved.loadTimeoutMs ?? DEFAULTS.loadTimeoutMs);
  return resolveConfig(resolved, rootDir, display, env, userAssertionsByName(assertions));
}

/** A config object checked against the config schema; each bad field is one error naming `file` (or what stands for it). */
export function parseUserConfig(loaded: unknown, file: string): ConfigInput {
  const shape = defaultExportProblem(loaded, { owner: 'config', hint: EXPORT_HINT });
  if (shape) throw new UserError(shape, { file });
  const parsed = ConfigSchema.safeParse(loaded, PARSE_ONCE);
  if (parsed.success) return parsed.data;
  // Nothing but unknown keys at the top: a misspelt config.
  const top = parsed.error.issues.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0);
  const keys = Object.keys(loaded as object);
  if (top && top.code === 'unrecognized_keys' && keys.length > 0 && keys.every((k) => top.keys.includes(k)))
    throw new UserError(`no config key here, only ${keys.map((k) => `"${k}"`).join(', ')}: ${EXPORT_HINT} (a named export is not read)`, { file });
  throw new UserErrors(
    parsed.error.issues.slice(0, 10).map((i) => {
      const { path, message } =
        describeTargetIssue(i, (loaded as { targets?: Record<string, unknown> }).targets?.[String(i.path[1])]) ??
        describeJudgeIssue(i, loaded) ??
        (i.code === 'unrecognized_keys' ? { path: i.path, message: unknownFieldsMessage(i.keys, fieldsAt(ConfigSchema, i.path, loaded)) } : i);
      return new UserError(message, { file, field: formatPath(path) || undefined });
    }),
  );
}

const EXPORT_HINT = 'a config is its default export: `export default defineConfig({ … })`';

/**
 * A judge the config names (or the environment, when the config names none) must exist and parse
 * now, so the error blames the config file or the variables, not an eval file that uses it.
 */
export function checkJudgeRefs(config: ResolvedConfig, file: string | undefined): void {
  const errors: UserError[] = [];
  for (const [name, ref] of Object.entries(config.judges)) {
    const problem = judgeRefProblem(ref, undefined);
    if (problem) errors.push(new UserError(problem, { file, field: `judges.${name}` }));
  }
  const problem = config.judge === undefined ? undefined : judgeRefProblem(config.judge, config.judges);
  if (problem) {
    errors.push(config.judgeFromEnv ? new UserError(`EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL: ${problem}`) : new UserError(problem, { file, field: 'judge' }));
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
}

/** Applies defaults; pure, so tests can build configs without files. Frozen: what differs is given in `user`. */
export function resolveConfig(user: ConfigInput, rootDir: string, file: string | null, env: NodeJS.ProcessEnv = {}, userAssertions: UserAssertions = NO_USER_ASSERTIONS): ResolvedConfig {
  const evals = [user.evals ?? DEFAULTS.evals].flat();
  return Object.freeze({
    rootDir,
    file,
    evals,
    targets: user.targets ?? {},
    mcpServers: user.mcpServers ?? {},
    judge: user.judge ?? judgeFromEnv(env),
    judgeFromEnv: user.judge === undefined && judgeFromEnv(env) !== undefined,
    judges: user.judges ?? {},
    concurrency: user.concurrency ?? DEFAULTS.concurrency,
    repeat: user.repeat ?? DEFAULTS.repeat,
    passRate: user.passRate ?? DEFAULTS.passRate,
    reducers: { ...(user.passAt !== undefined ? { passAt: user.passAt } : {}), ...(user.passHat !== undefined ? { passHat: user.passHat } : {}) },
    timeoutMs: user.timeoutMs ?? DEFAULTS.timeoutMs,
    loadTimeoutMs: user.loadTimeoutMs ?? DEFAULTS.loadTimeoutMs,
    outputDir: resolve(rootDir, user.outputDir ?? DEFAULTS.outputDir),
    // A reporter module is found from the config's folder, wherever the run starts.
    reporters: user.reporters?.map((spec) => reporterFromDir(spec, rootDir)) ?? defaultReporters(env),
    reporterTimeoutMs: user.reporterTimeoutMs ?? DEFAULTS.reporterTimeoutMs,
    results: user.results ?? DEFAULTS.results,
    assertions: user.assertions ?? [],
    userAssertions,
    trace: user.trace ?? DEFAULTS.trace,
    skipJudgesOnGateFailure: user.skipJudgesOnGateFailure ?? DEFAULTS.skipJudgesOnGateFailure,
    judgeEmptyReplies: user.judgeEmptyReplies ?? DEFAULTS.judgeEmptyReplies,
    selfJudgingWarning: user.selfJudgingWarning ?? DEFAULTS.selfJudgingWarning,
    embeddingModel: user.embeddingModel,
    earlyStop: user.earlyStop ?? DEFAULTS.earlyStop,
    cache: user.cache ?? DEFAULTS.cache,
    judgeBatch: user.judgeBatch ?? DEFAULTS.judgeBatch,
    cacheMaxEntries: user.cacheMaxEntries ?? DEFAULTS.cacheMaxEntries,
    maxCostUsd: user.maxCostUsd,
    strict: user.strict ?? DEFAULTS.strict,
    failOnFlaky: user.failOnFlaky ?? DEFAULTS.failOnFlaky,
    judgeSeverity: user.judgeSeverity ?? DEFAULTS.judgeSeverity,
    judgeThreshold: user.judgeThreshold ?? DEFAULTS.judgeThreshold,
    judgeMaxOutputChars: user.judgeMaxOutputChars,
    keepRuns: user.keepRuns ?? DEFAULTS.keepRuns,
    maxTrials: user.maxTrials ?? DEFAULTS.maxTrials,
    pricing: user.pricing ?? {},
    proxy: user.proxy,
    redteam: user.redteam ?? {},
    generate: user.generate ?? {},
  });
}

/** `./my-reporter.mjs[=path]` with its module path made absolute from `dir`; a registered name as it is. */
function reporterFromDir(spec: string, dir: string): string {
  const { name, target, module } = parseReporterSpec(spec);
  return module ? `${resolve(dir, name)}${target === undefined ? '' : `=${target}`}` : spec;
}
