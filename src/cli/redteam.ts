import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { collect, concurrency, count, judgeNoise, repeat, timeoutMs, usd } from './parse-number.js';
import { reporterOption, reporterOutputs, reportersHelp } from './reporters.js';
import { loadConfigFromFlags, planCases } from './prepare.js';
import { checkOutputs } from './output-check.js';
import { checkNewEvalFile, writeNewEvalFile } from './written-eval-file.js';
import { runPlanned, type RunFlagsRaw } from './run.js';
import { attackedTargets, readTargets } from './redteam-targets.js';
import { ProviderConfigError, UserError, errorMessage } from '../core/errors.js';
import type { RedteamSummary } from '../core/redteam-schema.js';
import { SCHEMA_VERSION, type CaseResult, type Results } from '../core/results-schema.js';
import { DEFAULT_REDTEAM_ATTEMPTS } from '../config/redteam-config.js';
import { reporterSpecs } from '../config/run-settings.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { attackSuite, findingsSuite, redteamSummary, selectPlugins, type RedteamPlugin, type RedteamTargetInfo } from '../redteam/index.js';
import { plantedInstructions } from '../redteam/target-facts.js';
import { createProvider } from '../providers/create.js';
import { ProviderLimiters } from '../providers/adaptive-limit.js';
import { ModelSpecInputSchema, formatModelSpec, parseModelSpec, type ModelSpecInput } from '../providers/model-spec.js';
import type { Provider } from '../providers/types.js';
import { providerList } from '../providers/registry.js';
import { runFolder } from '../report/run-folders.js';
import { RESULTS_FILE } from '../report/registry.js';
import type { Reporter } from '../report/reporter.js';
import { terminalSafe } from '../report/sanitize.js';
import { runIdAt } from '../runner/loop/index.js';
import { packageVersion } from './version.js';

/** The attack suite as the run folder keeps it: a plain eval file (`agent-evals run <it>` runs the same attacks again). */
export const ATTACK_FILE = 'redteam.eval.yaml';

interface RedteamFlags extends Omit<RunFlagsRaw, 'target'> {
  target?: string[];
  plugins?: string;
  attempts?: number;
  offline?: boolean;
  attacker?: string;
  save?: string;
}

export function registerRedteam(program: Command): void {
  program
    .command('redteam')
    .description(
      "attack the configured targets with each red-team plugin's attacks (seeds, and those an attacker model writes from the target's instructions and tools), run them as eval cases and report the attack success rate per plugin (exit 0 no attack succeeded, 1 one did, 2 bad input, 130 interrupted)",
    )
    .option('-c, --config <path>', 'config file (default: evals.config.ts and the like, found from here)')
    .option('--target <name>', 'attack this configured target (repeatable; default: every target)', collect)
    .option('--plugins <ids>', 'only these plugins, comma-separated (default: config `redteam.plugins`, else all; `docs/guide/red-team-plugins.md` lists them)')
    .option('--attempts <n>', `attacks per plugin and target (default: config \`redteam.attempts\`, else ${DEFAULT_REDTEAM_ATTEMPTS})`, count)
    .option('-r, --repeat <n>', 'trials per attack (overrides the config)', repeat)
    .option('--offline', 'only the seed attacks shipped with agent-evals: no attacker model is asked (not with --attacker)')
    .option('--attacker <provider:model>', `the model that writes attacks (default: config \`redteam.attacker\`, else the judge model; provider: ${providerList()})`)
    .option(
      '--save <file>',
      'write every successful attack as an ordinary eval case to this new eval file (*.eval.yaml or *.eval.yml; an existing file is never replaced), for `agent-evals run` to replay in CI',
    )
    .option('-j, --concurrency <n>', 'trials in flight at once', concurrency)
    .option('--timeout <ms>', 'per-trial timeout of the target, in ms', timeoutMs)
    .option('--judge <provider:model>', `the judge of the judged plugins (harmful-content) (provider: ${providerList()})`)
    .option('--judge-noise <k>', 'ask each judged assertion k more times on the first 20 trials of each case, and report its flip rate', judgeNoise)
    .option('--max-cost <usd>', 'stop starting trials once this many dollars are spent (targets and judges; the attacker writes before the run)', usd)
    .option('--shard <k/n>', 'only part k of n of the attacks (needs --offline: every machine must plan the same attacks); `agent-evals merge` joins the parts')
    .option('--json [path]', `write the results document (default <outputDir>/${RESULTS_FILE})`)
    .addOption(reporterOption().argParser(collect))
    .addHelpText('after', reportersHelp())
    .option('--silent', 'no terminal reporter (file reporters still write)')
    .option('-v, --verbose', 'show the reply and tool calls of each successful attack')
    .option('--load-timeout <ms>', 'how long importing the config may take, in ms', timeoutMs)
    .action(async (flags: RedteamFlags, cmd: Command) => {
      process.exitCode = await redteam(flags, cmd, process.cwd());
    });
}

async function redteam(flags: RedteamFlags, cmd: Command, cwd: string): Promise<number> {
  const config = await loadConfigFromFlags(flags, cwd);
  const names = attackedTargets(config, flags.target);
  const asked = flags.plugins !== undefined ? pluginList(flags.plugins) : config.redteam.plugins;
  // Checked before any MCP server is started to list tools, naming where the id was written.
  const where = flags.plugins !== undefined ? { field: '--plugins' } : { ...(config.file ? { file: config.file } : {}), field: 'redteam.plugins' };
  const plugins = withoutUnjudged(asked, selectPlugins(asked, where), flags.judge !== undefined || config.judge !== undefined, where);
  const perPlugin = flags.attempts ?? config.redteam.attempts ?? DEFAULT_REDTEAM_ATTEMPTS;
  // Every machine of a sharded run must plan the same cases: an attacker writes different ones each time.
  if (flags.shard !== undefined && !flags.offline)
    throw new UserError('--shard needs --offline: an attacker model writes other attacks on every machine, so the parts would not make one plan', { field: '--shard' });
  if (flags.offline && flags.attacker !== undefined) throw new UserError('--offline asks no attacker model: give --offline or --attacker, not both', { field: '--attacker' });
  const attacker = flags.offline ? undefined : attackerModel(config, flags.attacker);
  const save = flags.save !== undefined ? resolve(cwd, flags.save) : undefined;
  const saveShown = save !== undefined ? relative(cwd, save) || save : '';
  // Checked before any attack is paid for: findings are committed and edited, and `run` must load them.
  if (save) await checkNewEvalFile(save, saveShown, '--save', 'saved findings');
  // Where the findings and the run's reports will be written, too (the run checks its own again).
  const reporterContext = { cwd, outputDir: config.outputDir, keepRuns: config.keepRuns, version: packageVersion(), verbose: Boolean(flags.verbose) };
  await checkOutputs([...(save ? [{ path: save, kind: 'file' as const, field: '--save' }] : []), ...reporterOutputs(reporterSpecs(config, flags), reporterContext)], config.file);

  const { targets, guessed } = await readTargets(config, names, process.env);
  for (const g of guessed)
    process.stderr.write(
      `agent-evals: target ${terminalSafe(g.target)}: destructive tools guessed from their names and descriptions: ${g.tools.join(', ')} (confirm or correct with redteam.destructiveTools in the config)\n`,
    );
  const provider = attacker ? attackerProvider(attacker.input, config) : undefined;
  const suite = await attackSuite({ targets, ...(plugins ? { plugins } : {}), perPlugin, ...(provider ? { attacker: provider } : {}) }).catch((err: unknown) => {
    if (err instanceof UserError || !attacker) throw err;
    // Nothing has run yet: the attacker's failure (no answer, a malformed one) ends the command as bad input, named.
    const message = errorMessage(err);
    throw new UserError(message.startsWith('attacker ') ? message : `attacker ${attacker.name}: ${message}`);
  });

  // A model agent runs the attacks with a canary line added to its instructions: a reply or a tool argument carrying it shows they leaked.
  const attacked = withPlantedCanaries(config, targets);
  // The attack suite is a plain eval file in the run's folder, planned like any other.
  const runId = runIdAt(new Date().toISOString());
  const folder = runFolder(config.outputDir, runId);
  const attackFile = join(folder, ATTACK_FILE);
  await mkdir(folder, { recursive: true });
  await writeFile(attackFile, suite.yaml);
  process.stderr.write(`agent-evals: red team: ${relative(cwd, attackFile) || attackFile} (${suite.source === 'seeds' ? 'seed attacks' : `seed attacks and attacks by ${attacker!.name}`})\n`);
  const plan = await planCases(attacked, [attackFile], { ...selection(flags), ...(flags.repeat !== undefined ? { repeat: flags.repeat } : {}) }, cwd);

  // The cases as the run ended them (secrets redacted): the results' redteam section and the findings read them.
  const ended: { index: number; result: CaseResult }[] = [];
  const collector: Reporter = { name: 'redteam', onCaseEnd: (result, c) => void ended.push({ index: c.index, result }) };
  let results: Results | undefined;
  let found: RedteamSummary | undefined;
  const meta = { source: suite.source, ...(attacker ? { attacker: attacker.name } : {}), attackerUsage: suite.attackerUsage };
  const exitCode = await withoutLoneAttackFile(folder, () =>
    runPlanned({ config: attacked, cases: plan.cases, ...(plan.shard ? { shard: plan.shard } : {}) }, { ...flags, target: undefined }, cmd, cwd, undefined, {
      runId,
      rawReporters: [collector],
      redteam: ({ run, summary }) => {
        const cases = ended.sort((a, b) => a.index - b.index).map((e) => e.result);
        results = { schemaVersion: SCHEMA_VERSION, tool: { name: 'agent-evals', version: packageVersion() }, run, summary, cases };
        return (found = redteamSummary(results, meta));
      },
    }),
  );
  if (save && results && !results.run.interrupted) {
    if (found?.plugins.some((p) => p.successes > 0)) {
      await writeNewEvalFile(save, saveShown, '--save', findingsSuite(results, suite.yaml), 'the attacks ran');
      process.stderr.write(`agent-evals: wrote the successful attacks as eval cases: ${saveShown}\n`);
    } else process.stderr.write('agent-evals: no attack succeeded: --save wrote nothing\n');
  }
  return exitCode;
}

/**
 * Bad input the run finds before any trial (a missing API key, a baseline) is exit 2 with nothing
 * run: the run folder then holds only the attack file, which is removed rather than left as a run.
 */
async function withoutLoneAttackFile(folder: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    const held = await readdir(folder).catch(() => undefined);
    if (err instanceof UserError && held?.length === 1 && held[0] === ATTACK_FILE) await rm(folder, { recursive: true, force: true });
    throw err;
  }
}

/** The config with each model agent's instructions carrying its canary (what the prompt-extraction attacks detect). */
function withPlantedCanaries(config: ResolvedConfig, targets: readonly RedteamTargetInfo[]): ResolvedConfig {
  const planted = { ...config.targets };
  for (const t of targets) {
    const spec = planted[t.name];
    if (typeof spec !== 'object' || !('model' in spec)) continue;
    const { instructionsFile: _file, ...rest } = spec;
    planted[t.name] = { ...rest, instructions: plantedInstructions(t) };
  }
  return { ...config, targets: planted };
}

/** The selection flags `planCases` reads: `--target` names the attacked targets here (each case names its own), never an override. */
function selection(flags: RedteamFlags): { config?: string; shard?: string; timeout?: number; loadTimeout?: number } {
  return {
    ...(flags.shard !== undefined ? { shard: flags.shard } : {}),
    ...(flags.timeout !== undefined ? { timeout: flags.timeout } : {}),
  };
}

/**
 * A judged plugin with no judge anywhere would count every attack as a success ("No judge configured."
 * fails the assertion): asked for by name it is bad input; among the defaults it is left out, said on stderr.
 */
function withoutUnjudged(asked: readonly string[] | undefined, selected: readonly RedteamPlugin[], hasJudge: boolean, where: { file?: string; field: string }): string[] | undefined {
  const judged = selected.filter((p) => p.decidedBy === 'judge').map((p) => p.id);
  if (hasJudge || !judged.length) return asked ? [...asked] : undefined;
  const ids = judged.join(', ');
  if (asked) throw new UserError(`${ids} is decided by a judge and none is configured: give --judge provider:model (or a judge in the config), or leave it out`, where);
  process.stderr.write(`agent-evals: ${ids} left out: it is decided by a judge and none is configured (give --judge provider:model or a judge in the config)\n`);
  return selected.filter((p) => p.decidedBy !== 'judge').map((p) => p.id);
}

function pluginList(text: string): string[] {
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!ids.length) throw new UserError('--plugins needs at least one plugin id', { field: '--plugins' });
  return ids;
}

/** The attacker: `--attacker`, else the config's `redteam.attacker`, else the judge model; none is bad input (with a way out). */
function attackerModel(config: ResolvedConfig, flag: string | undefined): { input: ModelSpecInput; name: string } {
  const field = flag !== undefined ? '--attacker' : 'redteam.attacker';
  const input: ModelSpecInput | undefined = flag ?? config.redteam.attacker ?? judgeModel(config.judge);
  if (input === undefined)
    throw new UserError('no attacker model: give --attacker provider:model, set redteam.attacker (or a judge model) in the config, or run the seed attacks alone with --offline', { field });
  try {
    return { input, name: formatModelSpec(parseModelSpec(input)) };
  } catch (err) {
    throw new UserError(`attacker: ${errorMessage(err)}`, { field });
  }
}

/** The config's judge when it is one model (a judge object, a panel or the fake judge writes no attacks). */
function judgeModel(judge: ResolvedConfig['judge']): ModelSpecInput | undefined {
  const parsed = ModelSpecInputSchema.safeParse(judge);
  return parsed.success ? parsed.data : undefined;
}

/** The attacker's client, made now: a missing API key is bad input before anything runs. */
function attackerProvider(input: ModelSpecInput, config: ResolvedConfig): Provider {
  try {
    return createProvider(input, process.env, { limiters: new ProviderLimiters(config.concurrency, { proxy: config.proxy }) });
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new ProviderConfigError(`attacker: ${err.message}`);
    throw err;
  }
}
