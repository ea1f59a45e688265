/**
 * The repository is self-contained: the README and the comments under src/ link or cite nothing
 * outside it (no external URL, no path above the repository, no design notes kept elsewhere).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

/** A URL to another machine (a local address, as in a config example, stays inside). */
const OUTSIDE = [/https?:\/\/(?!127\.0\.0\.1|localhost)/i, /\.\.\/shared/, /\bDESIGN(\.md)?\b/];

describe('nothing outside the repository is linked or cited', () => {
  it('README: every link is an anchor or a file of the repository, and no URL appears', () => {
    const text = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    for (const pattern of OUTSIDE) expect(text, String(pattern)).not.toMatch(pattern);
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    for (const target of targets) {
      if (target.startsWith('#')) continue;
      expect(target, 'a link leaves the repository').not.toMatch(/^(\/|\.\.\/|[a-z]+:)/i);
      expect(existsSync(join(REPO_ROOT, target.split('#')[0]!)), `README links ${target}, which is not in the repository`).toBe(true);
    }
  });

  it('code comments under src/', async () => {
    const files = await glob('src/**/*.ts', { cwd: REPO_ROOT });
    expect(files.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      // Block comments and line comments (a `//` inside a URL string is preceded by `:`).
      const comments = [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/.*$/gm)].map((m) => m[0]);
      for (const c of comments) if (OUTSIDE.some((p) => p.test(c))) found.push(`${file}: ${c.trim().slice(0, 120)}`);
    }
    expect(found).toEqual([]);
  });
});
