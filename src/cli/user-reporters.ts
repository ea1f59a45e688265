import { resolve } from 'node:path';
import { UserError, errorMessage } from '../core/errors.js';
import type { ReporterOptions } from '../report/descriptor.js';
import type { Reporter } from '../report/reporter.js';
import { createdReporterProblem, reporterModuleProblem, type ReporterModule } from '../report/user-reporter.js';
import { importUserModule } from '../suite/import-module.js';
import { HookTimeoutError, type HookBound } from '../report/hook-bound.js';

/**
 * A user's reporter module (`--reporter ./my-reporter.mjs`, resolved from the working directory;
 * config entries arrive resolved from the config's folder): loaded, checked and created before the
 * run starts. A module that cannot load, exports no reporter module, speaks another apiVersion or
 * throws in `create` is bad input, exit 2 naming the module; so is a `create` that does not settle
 * within `bound` (which would otherwise hang the run before it starts, or end the process unsettled).
 */
export async function loadUserReporter(modulePath: string, options: ReporterOptions, bound: HookBound): Promise<Reporter> {
  const fail = (why: string) => new UserError(`reporter module: ${why}`, { file: modulePath });
  const loaded = await importUserModule(resolve(options.cwd, modulePath), modulePath);
  const problem = reporterModuleProblem(loaded);
  if (problem) throw fail(problem);
  let created: unknown;
  try {
    // Only its public options: the built-in ones' extras are no part of the interface.
    const { path, pathGiven, cwd, outputDir, version, verbose } = options;
    created = await bound.settle((loaded as ReporterModule).create({ path, pathGiven, cwd, outputDir, version, verbose }));
  } catch (err) {
    throw fail(`create() ${err instanceof HookTimeoutError ? '' : 'threw: '}${errorMessage(err)}`);
  }
  const bad = createdReporterProblem(created);
  if (bad) throw fail(bad);
  return created as Reporter;
}
