import { relative } from 'node:path';
import { UserError, UserErrors } from '../core/errors.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { discoverEvalFiles } from '../suite/discover.js';
import { discoverScoreFiles } from '../suite/discover-score-files.js';
import { loadScoreFile, type Scoring } from '../suite/load-score-file.js';
import { suiteScoring } from '../suite/suite-scoring.js';
import { pushAll } from '../core/push-all.js';

/**
 * What grades the traces of `agent-evals score`: `--suite`'s suite-level assertions, else the scoring
 * files of `--scoring`, else every `*.score.yaml` under the folders of the config's eval globs. Every
 * bad scoring file is reported at once (exit 2), each naming its file, line and field.
 */
export async function loadScorings(config: ResolvedConfig, flags: { suite?: string; scoring?: string[]; loadTimeout?: number }, cwd: string): Promise<Scoring[]> {
  if (flags.suite !== undefined) {
    const files = await discoverEvalFiles({ rootDir: config.rootDir, cwd, globs: [...config.evals], paths: [] });
    return [await suiteScoring(files, flags.suite, { cwd, userAssertions: config.userAssertions, loadTimeoutMs: flags.loadTimeout ?? config.loadTimeoutMs })];
  }
  const paths = flags.scoring ?? [];
  const files = discoverScoreFiles({ rootDir: config.rootDir, cwd, evalGlobs: config.evals, paths });
  if (files.length === 0)
    throw new UserError(`no scoring file: none (*.score.yaml) under the folders of ${config.evals.join(', ')}; give one with --scoring <file>, or score with a suite's assertions (--suite <name>)`, {
      field: '--scoring',
    });
  const scorings: Scoring[] = [];
  const errors: UserError[] = [];
  for (const file of files) {
    try {
      scorings.push(await loadScoreFile(file, relative(cwd, file) || file, config.userAssertions));
    } catch (err) {
      if (err instanceof UserErrors) pushAll(errors, err.errors);
      else if (err instanceof UserError) errors.push(err);
      else throw err;
    }
  }
  if (errors.length) throw errors.length === 1 ? errors[0]! : new UserErrors(errors);
  return scorings;
}
