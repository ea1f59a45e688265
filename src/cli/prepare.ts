import type { RepeatSetting } from '../core/repeat-setting.js';
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';
import { closestName } from '../core/closest-name.js';
import { collect, count, countOrZero, repeat, timeoutMs } from './parse-number.js';
import { loadConfig, type ResolvedConfig } from '../config/load-config.js';
import { planDefaults } from '../config/plan-defaults.js';
import { discoverEvalFiles } from '../suite/discover.js';
import { checkSelected, loadCases, type PlannedCase, type Selection } from '../suite/plan.js';
import { selectCases } from '../suite/select.js';
import { targetOverride } from './target-flags.js';
import { parseShard, planDigest, shardOf, type PlanDigest, type ShardSpec } from '../suite/shard.js';
import { caseFingerprint } from '../suite/fingerprint.js';
import { partialReasons } from './partial-selection.js';
import { checkTrialCap } from '../suite/trial-cap.js';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../suite/import-module.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';
import { onlyDraftsError, partDrafts } from './draft-cases.js';

/** The options that choose cases, shared by `run` and `list`. */
export function addSelectionOptions(cmd: Command, repeatHelp: string): Command {
  return cmd
    .argument('[paths...]', 'eval files or directories (default: the config globs)')
    .option('-c, --config <path>', `config file (default: ${CONFIG_FILES_HELP})`)
    .option('-f, --filter <glob>', 'only cases whose suite/id matches (repeatable)', collect)
    .option('-t, --tag <tag>', 'only cases with this tag (repeatable; all must match)', collect)
    .option('--exclude-tag <tag>', 'skip cases with this tag (repeatable)', collect)
    .option('-r, --repeat <n>', repeatHelp, repeat)
    .option('--target <name>', 'run every case against this one configured target')
    .option(
      '--matrix <dimension=values>',
      "run every case once per value, once per combination when several are given (repeatable): target=a,b; a model-agent target's model=provider:model,…, effort=low,high, instructions=@file,@file",
      collect,
    )
    .option('--limit <n>', 'only the first n rows of each dataset', count)
    .option('--sample <n>', 'n rows of each dataset, chosen by --seed (the same rows on every machine)', count)
    .option('--seed <s>', 'the seed of --sample (default 0)', countOrZero)
    .option('--include-drafts', 'run the draft cases too (`draft: true`: generated, not reviewed yet), which a run otherwise skips')
    .option('--shard <k/n>', 'only part k of n of the selected cases (all trials of a case in one part); `agent-evals merge` joins the parts')
    .option('--load-timeout <ms>', `how long importing the config or an eval .ts file may take, in ms (default ${DEFAULT_LOAD_TIMEOUT_MS})`, timeoutMs);
}

export interface SelectionFlags {
  config?: string;
  filter?: string[];
  tag?: string[];
  excludeTag?: string[];
  repeat?: RepeatSetting;
  loadTimeout?: number;
  target?: string;
  matrix?: string[];
  limit?: number;
  sample?: number;
  seed?: number;
  shard?: string;
  /** `run --timeout`: planned into every case, like --repeat. */
  timeout?: number;
  /** `run --last-failed`: only these case keys; none of them selected is no case to run (not an error). */
  onlyKeys?: ReadonlySet<string>;
  /** `--include-drafts`: draft cases (`draft: true`) are planned like any other; else they are skipped. */
  includeDrafts?: boolean;
  /** `list`: a selection of drafts alone is shown, not refused (a run refuses it: it would run nothing). */
  draftsAlone?: boolean;
}

/** A shard's place in the whole plan: which part, the plan's digest, each case's position in it. */
export interface ShardPlan extends ShardSpec {
  plan: PlanDigest;
  positions: number[];
}

/** The config that `--config` and `--load-timeout` name (else the one found from `cwd`), as every command loads it. */
export function loadConfigFromFlags(flags: { config?: string; loadTimeout?: number }, cwd: string): Promise<ResolvedConfig> {
  return loadConfig({ cwd, ...(flags.config ? { configPath: flags.config } : {}), ...(flags.loadTimeout !== undefined ? { loadTimeoutMs: flags.loadTimeout } : {}) });
}

/** Config, files and the selected cases: everything before a target runs, so bad input exits 2 early. */
export async function prepareCases(paths: string[], flags: SelectionFlags, cwd = process.cwd()): Promise<{ config: ResolvedConfig } & PlannedRun> {
  const config = await loadConfigFromFlags(flags, cwd);
  return { config, ...(await planCases(config, paths, flags, cwd)) };
}

/** The cases a run executes, indexed; `partial` says what cut them from the whole suite (empty: nothing). */
export interface PlannedRun {
  cases: PlannedCase[];
  total: number;
  partial: string[];
  shard?: ShardPlan;
  /** The draft cases the selection matched and the run skips (none under `--include-drafts`), in plan order. */
  drafts: PlannedCase[];
}

/** The eval files of a resolved config (or `paths`), loaded and selected: the cases a run executes, indexed. */
export async function planCases(config: ResolvedConfig, paths: string[], flags: SelectionFlags, cwd: string): Promise<PlannedRun> {
  // A bad --shard is exit 2 before any file loads.
  const spec = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  const files = await discoverEvalFiles({ rootDir: config.rootDir, cwd, globs: [...config.evals], paths });
  if (files.length === 0) {
    throw new UserError(paths.length ? `no eval files in ${paths.join(', ')}` : `no eval files match ${config.evals.join(', ')}${config.file ? ` (from ${config.file})` : ''}`);
  }
  if (flags.limit !== undefined && flags.sample !== undefined) throw new UserError('--limit and --sample both choose dataset rows: give one');
  if (flags.seed !== undefined && flags.sample === undefined) throw new UserError('--seed chooses the rows of --sample: give --sample n too');
  const override = targetOverride(flags, Object.keys(config.targets), config.file);
  const loaded = await loadCases(files, cwd, {
    ...(override ? { targetOverride: override } : {}),
    pick: { ...(flags.limit !== undefined ? { limit: flags.limit } : {}), ...(flags.sample !== undefined ? { sample: flags.sample, seed: flags.seed ?? 0 } : {}) },
    override: { repeat: flags.repeat, timeoutMs: flags.timeout },
    ...planDefaults(config),
  });
  // Drafts are out of the plan before anything counts it: a skipped draft makes no run partial, no shard differ.
  const { runnable: all, drafts: allDrafts } = flags.includeDrafts ? { runnable: loaded, drafts: [] } : partDrafts(loaded);
  const selection: Selection = { filters: flags.filter ?? [], tags: flags.tag ?? [], excludeTags: flags.excludeTag ?? [], ...(flags.onlyKeys ? { keys: flags.onlyKeys } : {}) };
  const cases = selectCases(all, selection);
  const drafts = selectCases(allDrafts, selection);
  if (cases.length === 0 && flags.onlyKeys) return { cases: [], total: all.length, partial: ['--last-failed'], drafts: [] };
  if (cases.length === 0 && drafts.length > 0 && !flags.draftsAlone) {
    const filtered = selection.filters.length + selection.tags.length + selection.excludeTags.length > 0;
    // The error's prefix names the drafts' file when there is one: the paths given would repeat it.
    throw onlyDraftsError(drafts, filtered || paths.length ? 'the selection' : 'the suite');
  }
  if (cases.length === 0 && drafts.length === 0) {
    const what = [...selection.filters.map((f) => `--filter ${f}`), ...selection.tags.map((t) => `--tag ${t}`), ...selection.excludeTags.map((t) => `--exclude-tag ${t}`)];
    throw new UserError(
      `no case matches ${what.join(' ') || 'the selection'} (${all.length} case${all.length === 1 ? '' : 's'} loaded; \`agent-evals list\` shows them)${tagGuess(selection.tags, all)}`,
    );
  }
  // Before sharding: every shard of a plan refuses alike.
  checkSelected(cases);
  // Paths that name fewer files than the config's globs find run part of the suite.
  const pathsLeaveOutFiles = paths.length > 0 && (await discoverEvalFiles({ rootDir: config.rootDir, cwd, globs: [...config.evals], paths: [] })).some((f) => !files.includes(f));
  const partial = partialReasons({ flags, paths, pathsLeaveOutFiles, loaded: all.length, selected: cases.length, shardParts: spec?.total });
  if (flags.onlyKeys && cases.length < all.length) partial.push('--last-failed');
  if (!spec) {
    checkTrialCap(cases, config);
    return { cases: cases.map((c, index) => ({ ...c, index })), total: all.length, partial, drafts };
  }
  const parts = shardOf(cases, spec.total);
  const positions = cases.flatMap((_, i) => (parts[i] === spec.index ? [i] : []));
  checkTrialCap(
    positions.map((p) => cases[p]!),
    config,
  );
  // What the case asks and checks, and the per-case settings that decide its verdict (--timeout among them).
  const plan = planDigest(
    cases.map((c) => ({ key: c.key, repeat: c.repeat, fingerprint: `${caseFingerprint(c)}/${c.passRate}/${c.timeoutMs}${c.reducer ? `/${c.reducer.kind}:${c.reducer.k}:${c.reducer.min}` : ''}` })),
  );
  // Indexed within the shard (plan order of its own cases); `positions` keeps their place in the whole.
  return { cases: positions.map((p, index) => ({ ...cases[p]!, index })), total: all.length, partial, shard: { ...spec, plan, positions }, drafts };
}

/** `; did you mean --tag refunds?` for the first --tag no loaded case has that is near one they have; else ''. */
function tagGuess(tags: readonly string[], cases: readonly PlannedCase[]): string {
  const known = new Set(cases.flatMap((c) => c.tags));
  for (const tag of tags) {
    const near = known.has(tag) ? undefined : closestName(tag, known);
    if (near) return `; did you mean --tag ${near}?`;
  }
  return '';
}
