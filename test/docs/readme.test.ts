/**
 * The README is the front page: at most 200 lines, with the two quick-start commands as a new user
 * types them, and links into docs/ for the rest. CI runs exactly its test command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

describe('the README', () => {
  it('is at most 200 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('holds the two quick-start commands', () => {
    expect(readme).toMatch(/^npm ci && npx agent-evals run\b/m);
    expect(readme).toMatch(/^npm ci && npm test\b/m);
  });

  it('links the guide, every reference page and CONTRIBUTING.md', () => {
    for (const page of [
      'docs/guide/README.md',
      'docs/reference/README.md',
      'docs/reference/config.md',
      'docs/reference/cli.md',
      'docs/reference/assertions.md',
      'docs/reference/results.md',
      'docs/reference/providers.md',
      'CONTRIBUTING.md',
    ])
      expect(readme, page).toContain(`](${page})`);
  });

  it('states no figure of one machine that goes stale (install size, test count, suite duration); the getting-started guide neither', () => {
    const guide = readFileSync(join(REPO_ROOT, 'docs', 'guide', 'getting-started.md'), 'utf8');
    // Measured on one day: wrong on the next release. Facts the code fixes (defaults, limits) are not these.
    const stale = [/\b\d[\d,.]* ?(MB|GB|tests|test files)\b/, /\btakes (about )?\d[\d,.]* ?(s|ms|min|minutes|seconds)\b/, /\bmeasured (on )?20\d\d-/];
    for (const [name, text] of [
      ['README.md', readme],
      ['docs/guide/getting-started.md', guide],
    ])
      for (const figure of stale) expect(text, `${name}: ${figure}`).not.toMatch(figure);
  });

  it("is what CI runs: .ci/run installs with `npm ci` and then runs the README's `npm test`", () => {
    const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci\nnpm test\n?$/m);
  });
});
