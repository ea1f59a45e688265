/**
 * The walk for simple eval-file globs (src/suite/eval-glob.ts) matches exactly what tinyglobby
 * matches with discover.ts's options, and declines (undefined: tinyglobby answers) every pattern or
 * tree it does not model.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { glob } from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import { simpleGlob } from '../../src/suite/eval-glob.js';
import { discoverEvalFiles } from '../../src/suite/discover.js';
import { CLI, REPO_ROOT, removeTempDirs, tempDir } from '../support/cli.js';
import { runWithModuleProbe } from '../support/module-probe.js';

afterAll(removeTempDirs);

const FILES = [
  'evals/a.eval.yaml',
  'evals/b.eval.yml',
  'evals/c.eval.ts',
  'evals/d.eval.json',
  'evals/.hidden.eval.ts',
  'evals/.dot/e.eval.ts',
  'evals/node_modules/f.eval.ts',
  'evals/deep/er/g.eval.ts',
  'evals/deep/node_modules/h.eval.yaml',
  'evals/eval.ts',
  'evals/.eval.ts',
  'other/j.eval.ts',
  'k.eval.ts',
  '.top/l.eval.ts',
  'evals.x/m.eval.ts',
];

function tree(): string {
  const root = tempDir('agent-evals-glob-');
  for (const f of FILES) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  return root;
}

const tiny = async (root: string, pattern: string) => (await glob([pattern], { cwd: root, absolute: true, ignore: ['**/node_modules/**'] })).sort();

describe('simpleGlob', () => {
  it('matches what tinyglobby matches for the simple shapes (dot names, node_modules, folders, depth, braces)', async () => {
    const root = tree();
    const patterns = [
      'evals/**/*.eval.{yaml,yml,ts}',
      '**/*.eval.{yaml,yml,ts,mts,js,mjs}',
      'evals/*.eval.ts',
      '*.eval.ts',
      '**/*.ts',
      'evals/deep/**/*.eval.ts',
      'evals/*.{eval.yaml,eval.ts}',
      'missing/**/*.eval.ts',
      '.top/**/*.eval.ts',
      'evals.x/*.eval.ts',
      'evals/**/*eval.ts',
    ];
    for (const pattern of patterns) {
      const walked = simpleGlob(root, pattern);
      if (pattern.startsWith('missing/')) {
        // A folder that cannot be read: tinyglobby answers (nothing).
        expect(walked).toBeUndefined();
        continue;
      }
      expect(walked, pattern).toBeDefined();
      expect([...walked!].sort(), pattern).toEqual(await tiny(root, pattern));
    }
    // The probe is not blind: the walk found files at depth and skipped what tinyglobby skips.
    expect(simpleGlob(root, 'evals/**/*.eval.{yaml,yml,ts}')!.sort()).toEqual(['evals/a.eval.yaml', 'evals/b.eval.yml', 'evals/c.eval.ts', 'evals/deep/er/g.eval.ts'].map((f) => join(root, f)));
  });

  it('declines other patterns and trees with symbolic links, and discovery then finds what tinyglobby finds', async () => {
    const root = tree();
    for (const pattern of [
      'evals/**/a*.eval.ts',
      'evals/{a,b}/*.ts',
      'evals/**',
      'evals',
      './evals/*.ts',
      '/evals/*.ts',
      'evals//*.ts',
      'evals/../*.ts',
      'node_modules/*.ts',
      'evals/*.{ts}',
      'evals/*.{ts,}',
      '!evals/*.ts',
      'evals/**/deep/*.ts',
      'ev?ls/*.ts',
      'evals/*.eval.[jt]s',
      'evals/*.@(ts|yaml)',
      'evals/**/**/*.ts',
      'evals/**/*',
    ]) {
      expect(simpleGlob(root, pattern), pattern).toBeUndefined();
    }
    // A folder the pattern matches: tinyglobby takes it for all the files under it.
    mkdirSync(join(root, 'evals', 'deep', 'x.eval.ts', 'sub'), { recursive: true });
    writeFileSync(join(root, 'evals', 'deep', 'x.eval.ts', 'sub', 'n.eval.yaml'), '');
    expect(simpleGlob(root, 'evals/*/*.eval.ts')).toBeUndefined();
    expect(simpleGlob(root, 'evals/**/*.eval.ts')).toBeUndefined();
    expect(await discoverEvalFiles({ rootDir: root, cwd: root, globs: ['evals/deep/*.eval.ts'], paths: [] })).toEqual([join(root, 'evals', 'deep', 'x.eval.ts', 'sub', 'n.eval.yaml')]);
    symlinkSync(join(root, 'other'), join(root, 'evals', 'linked'));
    expect(simpleGlob(root, 'evals/**/*.eval.ts')).toBeUndefined();
    const found = await discoverEvalFiles({ rootDir: root, cwd: root, globs: ['evals/**/*.eval.{yaml,yml,ts}'], paths: [] });
    expect(found).toContain(join(root, 'evals', 'linked', 'j.eval.ts'));
    expect(found).toEqual((await tiny(root, 'evals/**/*.eval.{yaml,yml,ts}')).filter((f) => /\.eval\.(ya?ml|ts)$/.test(f)));
    // A directory given on the command line: the same walk, the same files as before.
    expect(await discoverEvalFiles({ rootDir: root, cwd: root, globs: [], paths: ['evals/deep/er'] })).toEqual([join(root, 'evals', 'deep', 'er', 'g.eval.ts')]);
  });
});

describe('the built CLI (needs `npm run build`)', () => {
  it('`list` of the example suite (evals/**/*.eval.{yaml,yml,ts}, no --filter) loads neither tinyglobby nor picomatch; a --filter glob loads picomatch', () => {
    runWithModuleProbe(CLI, ['list'], REPO_ROOT);
    const globbers = (r: { esm: string[]; cjs: string[] }) =>
      [...r.esm, ...r.cjs].filter((f) => f.includes('/node_modules/picomatch/') || f.includes('/node_modules/tinyglobby/') || f.includes('/node_modules/fdir/'));
    const plain = runWithModuleProbe(CLI, ['list'], REPO_ROOT);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^datasets\/support-csv\/\S+ {2}×1 {2}evals\/datasets\/support-questions\.csv:2 /m);
    expect(globbers(plain)).toEqual([]);
    // The probe is not blind: a --filter glob loads picomatch (as CommonJS) and selects by it.
    const filtered = runWithModuleProbe(CLI, ['list', '--filter', 'support/orders/*'], REPO_ROOT);
    expect(filtered.code).toBe(0);
    expect(filtered.stdout).toMatch(/^support\/orders\//m);
    expect(filtered.stdout).not.toMatch(/^datasets\//m);
    expect(filtered.cjs.filter((f) => f.includes('/node_modules/picomatch/')).length).toBeGreaterThan(0);
  });
});
