import { join } from 'node:path';
import type { Command } from 'commander';
import type { StartOptions } from '../runner/start-run.js';
import type { RunSettings } from '../runner/loop/settings.js';
import type { PlannedCase } from '../suite/plan.js';
import type { PlannedOutput } from './reporters.js';
import type { ReporterDescriptor } from '../report/descriptor.js';
import { REPORTERS } from '../report/registry.js';
import { writesResultsDocument } from '../report/reporter-spec.js';
import { redactArgv } from './redact-argv.js';

/**
 * What `run`, `rejudge` and `compare --rejudge` hand the front door alike: argv and version, and the
 * run folder's raw trials when the results hold digests (the front door adds the redactor and judges).
 */
export async function runBase(settings: RunSettings, cmd: Command, version: string, out: { specs: string[]; outputDir: string }): Promise<Pick<StartOptions, 'argv' | 'version' | 'rawReporters'>> {
  const { rawTrialsReporter } = await import('../report/raw-trials.js');
  // Under `safe` the results hold digests: what a re-judge needs stays in the run folder, beside
  // the cases the JSON reporter streams there (and pruned with them). No results file, no re-judge.
  const rawReporters = settings.judging.trace === 'safe' && writesResults(out.specs) ? [rawTrialsReporter({ outputDir: out.outputDir })] : [];
  return {
    rawReporters,
    argv: redactArgv(cmd.parent?.args ?? process.argv.slice(2)),
    version,
  };
}

/** The judge cache's folder, when the run's judges will write it: checked with the other outputs before the first trial. */
export async function judgeCacheOutput(cases: PlannedCase[], settings: RunSettings, outputDir: string): Promise<PlannedOutput[]> {
  const { staticJudgedSpecs } = await import('../judges/judged-specs.js');
  const judged = cases.some((c) => c.check !== undefined || staticJudgedSpecs(c).length > 0);
  return judged && settings.judging.cache ? [{ path: join(outputDir, 'cache'), kind: 'dir', field: 'outputDir' }] : [];
}

/** The reporters include the one that writes the results document (`json`): the run writes one. */
export function writesResults(specs: readonly string[], registry: readonly ReporterDescriptor[] = REPORTERS): boolean {
  return writesResultsDocument(specs, registry);
}
