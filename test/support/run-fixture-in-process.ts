/**
 * A fixture project (test/fixtures/<name>, config in evals.config.mjs) run in-process as `agent-evals run` runs it:
 * its eval files in a throwaway project, its config object with the judge and output folder set
 * per run (what JUDGE_SPEC and OUT_DIR do for the spawned CLI), the CLI's planning and pre-run
 * judge and key checks, the real judge service against the fake provider servers named in `env`,
 * and a terminal reporter whose output is kept. Target calls are counted by wrapping the targets.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UserConfig } from '../../src/config/define-config.js';
import type { SelectionFlags } from '../../src/cli/prepare.js';
import type { Results } from '../../src/core/results-schema.js';
import { createJudgeService } from '../../src/judges/service.js';
import type { Reporter } from '../../src/report/reporter.js';
import { terminalReporter } from '../../src/report/terminal.js';
import { checkApiKeys } from '../../src/runner/api-keys.js';
import { checkRunJudgeRefs } from '../../src/runner/judge-refs.js';
import { runRedactor } from '../../src/runner/run-secrets.js';
import type { RunFlags } from '../../src/runner/execute-run.js';
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
  flags?: Partial<RunFlags>;
  /** false is --no-cache. */
  cache?: boolean;
  dryRun?: boolean;
  verbose?: boolean;
  /** Reuse an output folder (and so its judge cache) across runs. */
  outDir?: string;
  reporters?(dir: string): Reporter[];
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

async function fixtureConfig(fixture: string): Promise<UserConfig> {
  let config = configs.get(fixture);
  if (!config) {
    const mod = (await import(pathToFileURL(join(fixtureDir(fixture), 'evals.config.mjs')).href)) as { default: UserConfig };
    configs.set(fixture, (config = mod.default));
  }
  return config;
}

/** Every file of the fixture but its configs, by relative path. */
function fixtureFiles(fixture: string): Record<string, string> {
  const root = fixtureDir(fixture);
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith('.config.mjs')) files[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

export async function runFixtureInProcess(fixture: string, opts: FixtureRunOptions = {}): Promise<FixtureRun> {
  return runProjectInProcess(fixtureFiles(fixture), await fixtureConfig(fixture), opts);
}

/** The same over a project given as files and a config object (`outputDir` and `judge` as the options say). */
export async function runProjectInProcess(files: Record<string, string>, base: UserConfig, opts: FixtureRunOptions = {}): Promise<FixtureRun> {
  const calls: string[] = [];
  const targets = Object.fromEntries(
    Object.entries(base.targets ?? {}).map(([name, t]) => [
      name,
      typeof t === 'function'
        ? ((input: string, ctx: Parameters<typeof t>[1]) => {
            calls.push(`${ctx.trial.suite}/${ctx.trial.id}#${ctx.trial.trial}`);
            return t(input, ctx);
          }) as typeof t
        : t,
    ]),
  );
  const outDir = opts.outDir ?? join(tempDir('agent-evals-judges-'), 'out');
  const env = opts.env ?? {};
  let out = '';
  const run = await runInProcess({
    files,
    config: { ...base, targets, outputDir: outDir, ...(opts.judge !== undefined ? { judge: opts.judge } : {}) },
    env,
    ...(opts.paths ? { paths: opts.paths } : {}),
    ...(opts.selection ? { selection: opts.selection } : {}),
    flags: { ...opts.flags, ...(opts.dryRun ? { dryRun: true } : {}) },
    beforeRun: (config, cases) => {
      checkRunJudgeRefs(config, cases, opts.override);
      if (!opts.dryRun) checkApiKeys(config, cases, opts.override, env);
    },
    reporters: (dir) => [terminalReporter({ out: { write: (text: string) => (out += text) }, live: false, verbose: Boolean(opts.verbose) }), ...(opts.reporters?.(dir) ?? [])],
    judges: (config, { pricing, warn }) =>
      createJudgeService({
        config,
        ...(opts.override ? { override: opts.override } : {}),
        dryRun: Boolean(opts.dryRun),
        cache: opts.cache ?? true,
        pricing,
        env,
        warn,
        redactor: runRedactor(config, env),
      }),
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
