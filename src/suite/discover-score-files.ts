import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { UserError } from '../core/errors.js';
import { SCORE_FILE } from './load-score-file.js';

const SCORE_GLOB = '**/*.score.{yaml,yml}';

/**
 * The folder part of an eval glob, before its first wildcard (`evals/**\/*.eval.yaml` → `evals`):
 * where a project keeps its eval files, and so its scoring files.
 */
function globFolder(glob: string): string {
  const parts = glob.split('/');
  const fixed: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (/[*?[\]{}!]/.test(p)) break;
    fixed.push(p);
  }
  return fixed.join('/') || '.';
}

/**
 * The scoring files of `agent-evals score`: the paths given (`--scoring`; a folder stands for the
 * `*.score.yaml` files under it), else every `*.score.yaml` under the folders of the config's eval
 * globs. Sorted, so a batch is planned the same way each time.
 */
export function discoverScoreFiles(opts: { rootDir: string; cwd: string; evalGlobs: readonly string[]; paths: readonly string[] }): string[] {
  const files = new Set<string>();
  if (opts.paths.length === 0) {
    for (const folder of new Set(opts.evalGlobs.map(globFolder))) {
      const dir = resolve(opts.rootDir, folder);
      if (existsSync(dir)) for (const f of globSync([SCORE_GLOB], { cwd: dir, absolute: true, ignore: ['**/node_modules/**'] })) files.add(f);
    }
    return [...files].sort();
  }
  for (const p of opts.paths) {
    const abs = resolve(opts.cwd, p);
    if (!existsSync(abs)) throw new UserError('no such scoring file or folder', { file: p, field: '--scoring' });
    if (statSync(abs).isDirectory()) {
      const found = globSync([SCORE_GLOB], { cwd: abs, absolute: true, ignore: ['**/node_modules/**'] });
      if (found.length === 0) throw new UserError('holds no scoring file (expected *.score.yaml)', { file: p, field: '--scoring' });
      for (const f of found) files.add(f);
    } else if (SCORE_FILE.test(abs)) files.add(abs);
    else throw new UserError('not a scoring file (expected *.score.yaml or *.score.yml)', { file: p, field: '--scoring' });
  }
  return [...files].sort();
}
