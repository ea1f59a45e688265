/**
 * A fixture project (test/fixtures/<name>, config in evals.config.mjs) run in-process as `agent-evals run` runs it:
 * in its own folder, its config object with the judge and output folder set
 * per run (what JUDGE_SPEC and OUT_DIR do for the spawned CLI), the CLI's planning and pre-run
 * judge and key checks, the real judge service against the fake provider servers named in `env`,
 * and a terminal reporter whose output is kept. Target calls are counted by wrapping the targets.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UserConfig } from '../../src/config/define-config.js';
import type { SelectionFlags } from '../../src/cli/prepare.js';
import type { Results } from '../../src/core/results-schema.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { Reporter } from '../../src/report/reporter.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { checkApiKeys } from '../../src/runner/api-keys.js';
import { checkJudgesExist, checkRunJudgeRefs } from '../../src/judges/judge-refs.js';
import { runRedactor } from '../../src/providers/run-redactor.js';
import type { RunFlags } from '../../src/config/run-settings.js';
import { fixtureDir, stripAnsi, tempDir } from './cli.js';
import { runInProcess } from './run-in-process.js';

export interface FixtureRunOptions {
  /** Eval files or folders, as `agent-evals run <paths...>` takes them. */
  paths?: string[];
  /** --filter, --repeat. */
  selection?: SelectionFlags;
  /** The config's `judge` (JUDGE_SPEC for the spawned CLI). */
  judge?: string;
  /** --judge. */
  override?: string;
  /** Provider URLs and keys, EVALS_JUDGE_*: the only environment the run sees. */
  env?: Record<string, string>;
  /** --no-early-stop is `{ earlyStop: false }`. */
  flags?: RunFlags;
  /** false is --no-cache. */
  cache?: boolean;
  dryRun?: boolean;
  verbose?: boolean;
  /** Reuse an output folder (and so its judge cache) across runs. */
  outDir?: string;
  /** More reporters, after the terminal; `stdout` writes where the terminal does (as the GitHub reporter does in the CLI). */
  reporters?(dir: string, stdout: { write(text: string): unknown }): Reporter[];
}

export interface FixtureRun {
  code: number;
  /** The terminal reporter's output. */
  stdout: string;
  /** Run-level problem lines, as the CLI prints them on stderr. */
  stderr: string;
  outDir: string;
  /** Target calls, one `suite/id#trial` each. */
  calls(): string[];
  results(): Results;
}

const configs = new Map<string, UserConfig>();

/** The fixture's config object (imported once; what it reads from the environment is overridden per run). */
async function fixtureConfig(fixture: string, file = 'evals.config.mjs'): Promise<UserConfig> {
  const path = join(fixtureDir(fixture), file);
  let config = configs.get(path);
  if (!config) {
    const mod = (await import(pathToFileURL(path).href)) as { default: UserConfig };
    configs.set(path, (config = mod.default));
  }
  return config;
}

/** The fixture run where it is (as the CLI runs in it), its output in a temp dir. */
export async function runFixtureInProcess(fixture: string, opts: FixtureRunOptions & { configFile?: string } = {}): Promise<FixtureRun> {
  return runProjectInProcess({ dir: fixtureDir(fixture) }, await fixtureConfig(fixture, opts.configFile), opts);
}

/** The same over a project given as files (written to a temp dir) and a config object. */
export async function runProjectInProcess(project: { files: Record<string, string> } | { dir: string }, base: UserConfig, opts: FixtureRunOptions = {}): Promise<FixtureRun> {
  const calls: string[] = [];
  const targets = Object.fromEntries(
    Object.entries(base.targets ?? {}).map(([name, t]) => [
      name,
      typeof t === 'function'
        ? (input: string, ctx: Parameters<typeof t>[1]) => {
            calls.push(`${ctx.trial.suite}/${ctx.trial.id}#${ctx.trial.trial}`);
            return t(input, ctx);
          }
        : t,
    ]),
  );
  const outDir = opts.outDir ?? join(tempDir('agent-evals-judges-'), 'out');
  const env = opts.env ?? {};
  let out = '';
  const run = await runInProcess({
    ...project,
    config: { ...base, targets, outputDir: outDir, ...(opts.judge !== undefined ? { judge: opts.judge } : {}) },
    env,
    ...(opts.paths ? { paths: opts.paths } : {}),
    ...(opts.selection ? { selection: opts.selection } : {}),
    flags: { ...opts.flags, ...(opts.dryRun ? { dryRun: true } : {}), ...(opts.override !== undefined ? { judge: opts.override } : {}), ...(opts.cache === false ? { cache: false } : {}) },
    beforeRun: (settings, cases) => {
      checkRunJudgeRefs(settings.judging, cases);
      checkJudgesExist(settings.judging, cases);
      if (!settings.dryRun) checkApiKeys(settings, cases);
    },
    reporters: (dir) => {
      const stdout = { write: (text: string) => (out += text) };
      return [terminalReporter({ out: stdout, live: false, verbose: Boolean(opts.verbose) }), ...(opts.reporters?.(dir, stdout) ?? [])];
    },
    judges: (settings, deps) => createJudgeService({ settings: settings.judging, ...deps, redactor: runRedactor(settings) }),
  });
  return {
    code: run.exitCode,
    stdout: stripAnsi(out),
    stderr: run.problems.join('\n'),
    outDir,
    calls: () => calls,
    results: () => run.results,
  };
}

/** A readable dump for assertion messages. */
export function explain(r: FixtureRun): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}
