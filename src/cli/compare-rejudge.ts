import type { Command } from 'commander';
import type { Results, Comparison } from '../core/results-schema.js';
import type { CompareOptions } from '../stats/compare-runs.js';
import type { ComparableResults } from '../stats/compared-case.js';
import { loadConfigFromFlags } from './prepare.js';
import { withInterrupt } from './interrupt.js';
import { packageVersion } from './version.js';
import { runBase } from './run-base.js';
import { plannedFor } from './rejudge.js';

/** The flags of `compare --rejudge` that choose head's judges. */
export interface CompareRejudgeFlags {
  config?: string;
  judge?: string;
  cache?: boolean;
}

/**
 * `compare base.json head.json --rejudge`: the baseline re-judged by head's judges, taken to be the
 * judges a run would use now (the config's, or `--judge`), then compared with head (stats/effects.ts).
 * Returns undefined when Ctrl-C stopped the re-judge.
 */
export async function compareRejudged(
  args: { recorded: Results; baseArg: string; head: ComparableResults; options: CompareOptions },
  flags: CompareRejudgeFlags,
  cmd: Command,
  cwd: string,
): Promise<Comparison | undefined> {
  const [{ resolveRunSettings }, { openRun }, { rejudgeLine }, { compareEffects }] = await Promise.all([
    import('../config/run-settings.js'),
    import('../runner/start-run.js'),
    import('../runner/rejudge/rejudge-baseline.js'),
    import('../stats/effects.js'),
  ]);
  const config = await loadConfigFromFlags(flags, cwd);
  // The current config's cases, as `agent-evals rejudge` plans them for a recording (its matrix values too).
  const cases = await plannedFor(args.recorded, config, cwd);
  const settings = resolveRunSettings(config, { ...(flags.judge !== undefined ? { judge: flags.judge } : {}), ...(flags.cache === false ? { cache: false } : {}) }, process.env);
  // No target runs: only the judges' keys are needed.
  const run = openRun(settings, cases, 'rejudge');
  // No results file is written, so no raw trials either.
  const base = await runBase(settings, cmd, packageVersion(), { specs: [], outputDir: config.outputDir });
  return withInterrupt(async (interrupt) => {
    process.stderr.write(`agent-evals: ${rejudgeLine(args.baseArg, args.recorded)}\n`);
    const r = await run.rejudgeBaseline({ ...base, recorded: args.recorded, file: args.baseArg, interrupt });
    if (r.interrupted) return undefined;
    process.stderr.write(`agent-evals: ${r.line}\n`);
    return compareEffects(r.baseline, args.head.cases, args.options);
  });
}
