import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { simpleGlob } from './eval-glob.js';

export const EVAL_FILE = /\.eval\.(ya?ml|ts|mts|js|mjs)$/;

/**
 * The eval files of a run: the config's globs, or the paths given on the command line (a
 * directory stands for the eval files under it). Sorted, so plans are stable.
 */
export async function discoverEvalFiles(opts: { rootDir: string; cwd: string; globs: string[]; paths: string[] }): Promise<string[]> {
  if (opts.paths.length === 0) {
    const found = await globFiles(opts.globs, opts.rootDir);
    return found.filter((f) => EVAL_FILE.test(f)).sort();
  }
  const files = new Set<string>();
  for (const p of opts.paths) {
    const abs = resolve(opts.cwd, p);
    if (!existsSync(abs)) throw new UserError(`no such file or directory: ${p}`);
    if (statSync(abs).isDirectory()) {
      for (const f of await globFiles(['**/*.eval.{yaml,yml,ts,mts,js,mjs}'], abs)) files.add(f);
    } else if (EVAL_FILE.test(abs)) {
      files.add(abs);
    } else {
      throw new UserError(`not an eval file (expected *.eval.yaml, *.eval.yml or *.eval.ts): ${p}`);
    }
  }
  return [...files].sort();
}

/**
 * The files the globs match under `cwd`, absolute: walked by eval-glob.ts when every glob is of its
 * simple shape, else by tinyglobby (loaded then: it and picomatch cost start-up to load).
 */
async function globFiles(globs: string[], cwd: string): Promise<string[]> {
  const simple = globs.map((g) => simpleGlob(cwd, g));
  if (simple.every((found) => found !== undefined)) return [...new Set(simple.flat())];
  const { glob } = await import('tinyglobby');
  return glob(globs, { cwd, absolute: true, ignore: ['**/node_modules/**'] });
}
