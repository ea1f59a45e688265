/**
 * Only `agent-evals/vitest` loads vitest: the main entry's whole import graph (as built to dist/)
 * names no test framework, so a Jest or node:test user never needs vitest installed.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');

/** Every package a module and the modules it imports (relatively, statically or dynamically) import. */
function packagesImportedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports and re-exports where the built files write them, at the start of a line (so a message
    // that quotes code, like commander's `from '.command()'`, is not one); dynamic imports anywhere.
    for (const m of text.matchAll(/^(?:import|export)\b[^\n]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/gm)) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  visit(entry);
  return packages;
}

describe('package entries', () => {
  it('the main entry never imports vitest; agent-evals/vitest does', () => {
    const main = packagesImportedFrom(resolve(dist, 'index.js'));
    // The walk is not blind: it reaches the YAML loader and zod.
    expect(main.has('js-yaml')).toBe(true);
    expect(main.has('zod')).toBe(true);
    expect(main.has('vitest')).toBe(false);
    expect(packagesImportedFrom(resolve(dist, 'api/vitest.js')).has('vitest')).toBe(true);
  });

  it('package.json exports ./vitest with vitest an optional peer', () => {
    const pkg = JSON.parse(readFileSync(resolve(dist, '../package.json'), 'utf8')) as Record<string, any>;
    expect(pkg.exports['./vitest']).toEqual({ types: './dist/api/vitest.d.ts', import: './dist/api/vitest.js' });
    expect(pkg.peerDependencies.vitest).toBeDefined();
    expect(pkg.peerDependenciesMeta.vitest).toEqual({ optional: true });
  });
});
