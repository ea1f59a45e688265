import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { UserError } from '../core/errors.js';

export const EVAL_FILE = /\.eval\.(ya?ml|ts|mts|js|mjs)$/;

/**
 * The eval files of a run: the config's globs, or the paths given on the command line (a
 * directory stands for the eval files under it). Sorted, so plans are stable. The crawl is
 * synchronous: nothing else runs while a command looks for its files, and a crawl that hands each
 * directory to libuv's thread pool and waits for it was idle time on `list`'s start-up.
 */
export async function discoverEvalFiles(opts: { rootDir: string; cwd: string; globs: string[]; paths: string[] }): Promise<string[]> {
  if (opts.paths.length === 0) {
    const found = globSync(opts.globs, { cwd: opts.rootDir, absolute: true, ignore: ['**/node_modules/**'] });
    return found.filter((f) => EVAL_FILE.test(f)).sort();
  }
  const files = new Set<string>();
  for (const p of opts.paths) {
    const abs = resolve(opts.cwd, p);
    if (!existsSync(abs)) throw new UserError(`no such file or directory: ${p}`);
    if (statSync(abs).isDirectory()) {
      for (const f of globSync(['**/*.eval.{yaml,yml,ts,mts,js,mjs}'], { cwd: abs, absolute: true, ignore: ['**/node_modules/**'] })) files.add(f);
    } else if (EVAL_FILE.test(abs)) {
      files.add(abs);
    } else {
      throw new UserError(`not an eval file (expected *.eval.yaml, *.eval.yml or *.eval.ts): ${p}`);
    }
  }
  return [...files].sort();
}
