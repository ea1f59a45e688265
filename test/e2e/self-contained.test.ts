/**
 * The repository is self-contained: the README, CONTRIBUTING.md, the pages under docs/ and the comments
 * under src/ link or cite nothing outside it (no external URL, no path above the repository, no design
 * notes kept elsewhere), and every link between the docs lands on a file of the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

/**
 * A URL to another machine (a local address, as in a config example, stays inside). The SVG namespace
 * is a name the DOM needs to make an SVG element (createElementNS), not a link: nothing is fetched from it.
 */
const OUTSIDE = [/https?:\/\/(?!127\.0\.0\.1|localhost|www\.w3\.org\/2000\/svg)/i, /\.\.\/shared/, /\bDESIGN(\.md)?\b/];

/** The anchors of a Markdown file's headings, as a Markdown renderer slugs them (code blocks left out). */
function anchorsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\w\- ]/g, '')
      .replace(/ /g, '-'),
  );
}

describe('nothing outside the repository is linked or cited', () => {
  it('README, CONTRIBUTING.md and docs/: every link is an anchor or a file of the repository, and no URL appears', async () => {
    const docs = await glob('docs/**/*.md', { cwd: REPO_ROOT });
    expect(docs.length, 'docs/ holds the reference pages').toBeGreaterThan(5);
    const files = ['README.md', 'CONTRIBUTING.md', ...docs];
    for (const file of files) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      for (const pattern of OUTSIDE) expect(text, `${file}: ${String(pattern)}`).not.toMatch(pattern);
      const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      for (const target of targets) {
        if (target.startsWith('#')) {
          expect(anchorsOf(join(REPO_ROOT, file)), `${file} links ${target}: no such heading`).toContain(target.slice(1));
          continue;
        }
        expect(target, `${file}: a link leaves the repository`).not.toMatch(/^(\/|[a-z]+:)/i);
        const landing = join(REPO_ROOT, dirname(file), target.split('#')[0]!);
        expect(relative(REPO_ROOT, landing), `${file} links ${target}, above the repository`).not.toMatch(/^\.\./);
        expect(existsSync(landing), `${file} links ${target}, which is not in the repository`).toBe(true);
        const anchor = target.split('#')[1];
        if (anchor !== undefined) expect(anchorsOf(landing), `${file} links ${target}: no such heading`).toContain(anchor);
      }
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
