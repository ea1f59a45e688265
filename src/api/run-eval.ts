import { checkJudgeRefs, parseUserConfig, resolveConfig } from '../config/load-config.js';
import type { UserConfig } from '../config/define-config.js';
import { planDefaults } from '../config/plan-defaults.js';
import { resolveRunSettings } from '../config/run-settings.js';
import { planDefinitions } from '../suite/plan.js';
import { loadUserAssertions } from '../suite/load-user-assertions.js';
import { userAssertionsByName } from '../assertions/user-assertion.js';
import type { EvalDefinition } from '../suite/define-eval.js';
import { openRun } from '../runner/start-run.js';
import type { Reporter } from '../report/reporter.js';
import { reporterHooks } from '../report/hook-bound.js';
import { namedReporter } from '../report/user-reporter.js';
import type { CaseResult, Summary } from '../core/results-schema.js';
import type { Judge } from '../core/judge-port.js';
import type { TargetConfig } from '../targets/config-schema.js';
import { evalResult, type EvalResult } from './eval-result.js';
import { EVALUATE } from './evaluate-name.js';

/** One fluent eval, as the builder collected it. */
export interface EvalPlan {
  target: { name: string; spec: TargetConfig };
  /** The suite: one case, the agent named as a configured target. */
  definition: EvalDefinition;
  /** A judge given as an object (`agentJudge(...)`, `promptJudge(...)`, any Judge), else in `config.judge`. */
  judge?: Judge;
  /** Config keys of evals.config.ts (no targets, evals or reporters): pricing, judges, concurrency, strict, … */
  config: UserConfig;
  reporters: Reporter[];
  signal?: AbortSignal;
}

/**
 * Runs one fluent eval exactly as `agent-evals run` runs a case: the config schema and defaults,
 * the TS eval-file schema and planner, the CLI's settings merge, its pre-run checks (judge
 * references, API keys), its judge service and the runner. What is left out is the CLI's own:
 * the config file, flags, terminal and files (nothing is written unless a reporter writes it).
 */
export async function runEval(plan: EvalPlan): Promise<EvalResult> {
  const env = process.env;
  // A judge object given to useJudge() is the eval's own config `judge` (kept as it is by the schema),
  // so the environment's judge is not fallen back to: given before the one resolution, never set after.
  const user = parseUserConfig({ cache: false, strict: true, ...plan.config, ...(plan.judge ? { judge: plan.judge } : {}), targets: { [plan.target.name]: plan.target.spec } }, EVALUATE);
  // The eval's own user assertions (`config({ assertions })`, from the working directory), as the CLI loads a config's.
  const cwd = process.cwd();
  const userAssertions = userAssertionsByName(await loadUserAssertions(user.assertions ?? [], cwd, EVALUATE, user.loadTimeoutMs));
  const config = resolveConfig(user, cwd, null, env, userAssertions);
  checkJudgeRefs(config, EVALUATE);
  const cases = await planDefinitions([plan.definition], EVALUATE, planDefaults(config));
  const settings = resolveRunSettings(config, {}, env);
  const run = openRun(settings, cases, 'run');

  let result: CaseResult | undefined;
  let summary: Summary | undefined;
  const collect: Reporter = {
    name: 'evaluate',
    onCaseEnd: (r) => void (result = r),
    onEnd: (end) => void (summary = end.summary),
  };
  const interrupt = plan.signal ?? new AbortController().signal;
  // A reporter given to the eval is user code, bounded as the CLI bounds a reporter module's hooks.
  const hooks = reporterHooks(config.reporterTimeoutMs, settings.interruptGraceMs);
  // Stopped once the run is over: the caller's signal may outlive it, and an abort then starts no timer.
  const unfollow = hooks.bound.follow(interrupt, hooks.graceMs);
  const { exitCode } = await run
    .start({
      // The result is the test's own, in-process: its trials keep their tool data whatever the trace
      // policy (secrets redacted all the same); a reporter the eval was given gets the policy's view.
      reporters: plan.reporters.map((r, i) => namedReporter(r, r.name ?? `reporter ${i + 1}`, hooks.bound)),
      rawReporters: [collect],
      interrupt,
      argv: [],
      version: 'api',
      inProcess: true,
    })
    .finally(unfollow);
  // Both are set: the run ends its one case, then its reporters, before it returns.
  return evalResult(result!, summary!, exitCode);
}
