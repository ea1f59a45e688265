/**
 * docs/reference/ is generated from the code (config schema and defaults, the commander program, the
 * assertion and reporter registries, the results schema, the provider registry): a page that differs from what the
 * generator renders from src/ today is stale, and this test names the command that rewrites it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencePages } from '../../scripts/docs/reference.mjs';
import { REPO_ROOT } from '../support/cli.js';

const pages = await referencePages('src');

describe('docs/reference/ is generated from the code', () => {
  it('generates the config, CLI, assertions, results, providers and reporters pages', () => {
    expect(Object.keys(pages).sort()).toEqual(['README.md', 'assertions.md', 'cli.md', 'config.md', 'providers.md', 'reporters.md', 'results.md'].map((f) => `docs/reference/${f}`));
  });

  it.each(Object.keys(pages))('%s is up to date', (path) => {
    let onDisk: string;
    try {
      onDisk = readFileSync(join(REPO_ROOT, path), 'utf8');
    } catch {
      throw new Error(`${path} is missing: run \`npm run docs\``);
    }
    expect(onDisk, `${path} is stale (the code it documents changed): run \`npm run docs\``).toBe(pages[path]);
  });

  it('holds no page the generator no longer writes', () => {
    const stale = readdirSync(join(REPO_ROOT, 'docs/reference'))
      .map((f) => `docs/reference/${f}`)
      .filter((p) => !(p in pages));
    expect(stale, 'docs/reference/ holds pages that `npm run docs` does not generate; delete them').toEqual([]);
  });
});
