/**
 * Drives the real runner in-process over a throwaway project: eval files written to a temp dir,
 * a config object (so targets may hold tools and functions), the JSON reporter writing the results
 * document, which is read back and validated. Cases are planned by the CLI's own `planCases`; only
 * the config file and the CLI's argument parsing are left out.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveConfig } from '../../src/config/load-config.js';
import type { UserConfig } from '../../src/config/define-config.js';
import { planCases, type SelectionFlags } from '../../src/cli/prepare.js';
import type { PlannedCase } from '../../src/suite/plan.js';
import { resolveRunSettings, type RunFlags } from '../../src/config/run-settings.js';
import type { RunSettings } from '../../src/runner/loop/settings.js';
import type { ProviderLimiters } from '../../src/providers/adaptive-limit.js';
import { executeRun, type ExecuteOptions } from '../../src/runner/loop/execute-run.js';
import { noJudgeService, type JudgeService } from '../../src/judges/judge-service.js';
import type { Reporter } from '../../src/report/reporter.js';
import { jsonReporter } from '../../src/report/json.js';
import { ResultsSchema, type CaseResult, type Results } from '../../src/core/results-schema.js';
import { createJudgeService } from '../../src/judges/create-judge-service.js';
import type { BatchPolling } from '../../src/judges/batch-polling.js';
import type { CollectRequest } from '../../src/judges/batch-collect.js';
import { rejudgeRecorded, type RejudgeOutcome } from '../../src/runner/rejudge/rejudge.js';
import { tempDir } from './cli.js';

export interface InProcessRun {
  results: Results;
  exitCode: number;
  warnings: string[];
  /** Run-level problem lines (a reporter or teardown step that failed), as the CLI prints them on stderr. */
  problems: string[];
  /** A judge batch's progress lines, as the CLI prints them on stderr. */
  progress: string[];
  /** The throwaway project folder. */
  dir: string;
  /** The run's provider limiters, as it left them. */
  limiters: ProviderLimiters;
}

export interface InProcessOptions {
  /** Written to a fresh temp dir, the project folder; or `dir`, an existing project run where it is. */
  files?: Record<string, string | Buffer>;
  dir?: string;
  config: UserConfig;
  /** Command-line flags, merged over the config by the CLI's own `resolveRunSettings`. */
  flags?: RunFlags;
  /** Eval files or folders, as `agent-evals run <paths...>` takes them (default: the config's globs). */
  paths?: string[];
  /** --filter, --tag, --exclude-tag, --repeat. */
  selection?: SelectionFlags;
  /** A judge service, or a builder of one for the run's settings (e.g. the real `createJudgeService`). */
  judges?: JudgeService | ((settings: RunSettings, deps: Parameters<ExecuteOptions['judges']>[0]) => ReturnType<ExecuteOptions['judges']>);
  /** Reporters run before the JSON one, which writes the results document read back. */
  reporters?(dir: string): Reporter[];
  /** The run's environment (default this process's): the config resolves against it (EVALS_JUDGE_PROVIDER / EVALS_JUDGE_MODEL), targets and judges get it. */
  env?: NodeJS.ProcessEnv;
  /** Checks the CLI makes once the cases are planned and the settings resolved, before any target runs. */
  beforeRun?(settings: RunSettings, cases: PlannedCase[]): void;
  /** How a judge batch is polled (`--judge-batch`); default: no wait between polls. */
  batchPolling?: ExecuteOptions['batchPolling'];
  /** The run's interrupt (Ctrl-C). */
  interrupt?: AbortSignal;
  /** `--replay-tools`: a tape read from a recorded run. */
  toolTape?: ExecuteOptions['toolTape'];
  /** `--baseline`: a baseline's cases and the comparison's options. */
  baseline?: ExecuteOptions['baseline'];
}

export async function runInProcess(opts: InProcessOptions): Promise<InProcessRun> {
  const dir = opts.dir ?? tempDir('agent-evals-e2e-');
  for (const [name, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const config = resolveConfig({ evals: ['**/*.eval.yaml'], outputDir: '.out', ...opts.config }, dir, 'evals.config.ts', opts.env);
  // The CLI's own planning: discovery, loading and selection, as `agent-evals run` does them.
  const { cases } = await planCases(config, opts.paths ?? [], opts.selection ?? {}, dir);

  const warnings: string[] = [];
  const problems: string[] = [];
  const progress: string[] = [];
  const judges = opts.judges;
  const path = join(opts.dir ? tempDir('agent-evals-results-') : dir, 'results.json');
  const settings = resolveRunSettings(config, { ...opts.flags }, opts.env ?? process.env);
  opts.beforeRun?.(settings, cases);
  faultGuards.begin();
  let exitCode: number;
  let limiters: ProviderLimiters;
  try {
    ({ exitCode, limiters } = await executeRun({
      settings,
      cases,
      reporters: [...(opts.reporters?.(dir) ?? []), { name: 'json', ...jsonReporter({ path, outputDir: config.outputDir, version: 'test' }) }, { onWarning: (m) => warnings.push(m) }],
      problem: (line) => problems.push(line),
      progress: (line) => progress.push(line),
      // Polls of a fake batch need no wall-clock wait.
      batchPolling: opts.batchPolling ?? { sleep: () => new Promise((resolve) => setImmediate(resolve)) },
      judges: typeof judges === 'function' ? (deps) => judges(settings, deps) : () => judges ?? noJudgeService,
      interrupt: opts.interrupt ?? new AbortController().signal,
      argv: [],
      version: 'test',
      ...(opts.toolTape ? { toolTape: opts.toolTape } : {}),
      ...(opts.baseline ? { baseline: opts.baseline } : {}),
    }));
  } finally {
    faultGuards.end();
  }
  return { results: ResultsSchema.parse(JSON.parse(readFileSync(path, 'utf8'))), exitCode, warnings, problems, progress, dir, limiters };
}

/**
 * A run's fault guard stays on the process after the run, as in the CLI (where the process then
 * ends). One test worker makes many runs, some at once: what they added goes when none is running
 * (in-process CLI runs included).
 */
export const faultGuards = (() => {
  let running = 0;
  let before: { exception: unknown[]; rejection: unknown[] } = { exception: [], rejection: [] };
  return {
    begin() {
      if (running++ === 0) before = { exception: process.listeners('uncaughtException'), rejection: process.listeners('unhandledRejection') };
    },
    end() {
      if (--running > 0) return;
      for (const l of process.listeners('uncaughtException')) if (!before.exception.includes(l)) process.off('uncaughtException', l);
      for (const l of process.listeners('unhandledRejection')) if (!before.rejection.includes(l)) process.off('unhandledRejection', l);
    },
  };
})();

/** What `rejudgeInProcess` saw: the outcome, and what its reporters and progress received. */
export interface InProcessRejudge {
  outcome: RejudgeOutcome;
  warnings: string[];
  progress: string[];
  full: CaseResult[];
}

/**
 * `rejudgeRecorded` as `agent-evals rejudge` runs it, in-process: the project in `dir` planned with
 * `config`, the real judge service with `env`'s keys, polls of a fake batch waiting on `sleep` (no clock).
 */
export async function rejudgeInProcess(o: {
  dir: string;
  config: UserConfig;
  recorded: Results;
  env: NodeJS.ProcessEnv;
  flags?: RunFlags;
  collect?: CollectRequest;
  sleep: BatchPolling['sleep'];
  /** A reporter of the test's own, after the one that gathers warnings and cases. */
  reporter?: Reporter;
}): Promise<InProcessRejudge> {
  const resolved = resolveConfig({ evals: ['**/*.eval.yaml'], outputDir: '.out', ...o.config }, o.dir, 'evals.config.ts', o.env);
  const { cases } = await planCases(resolved, [], {}, o.dir);
  const settings = resolveRunSettings(resolved, { cache: false, ...o.flags }, o.env);
  const warnings: string[] = [];
  const progress: string[] = [];
  const full: CaseResult[] = [];
  faultGuards.begin();
  try {
    const outcome = await rejudgeRecorded({
      recorded: o.recorded,
      file: 'r.json',
      cases,
      settings,
      ...(o.collect ? { collect: o.collect } : {}),
      reporters: [{ onWarning: (m) => warnings.push(m), onCaseEnd: (r) => void full.push(r) }, ...(o.reporter ? [o.reporter] : [])],
      problem: () => {},
      progress: (line) => void progress.push(line),
      judges: (deps) => createJudgeService({ settings: settings.judging, ...deps, env: o.env }),
      interrupt: new AbortController().signal,
      batchPolling: { sleep: o.sleep },
      argv: [],
      version: 'test',
    });
    return { outcome, warnings, progress, full };
  } finally {
    faultGuards.end();
  }
}
