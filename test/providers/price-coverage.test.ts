/**
 * Every model the project knows or names has a price: the capability table's families, and every
 * `openai:…` / `anthropic:…` model (and bare model id) the README, the docs, the examples, the live config and
 * the `init` templates name. Fails when one of them is missing from the price table.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_LINES, MODEL_TABLE } from '../../src/providers/model-table.js';
import { ANTHROPIC_PRICES, OPENAI_PRICES, PRICES_AS_OF, UNPUBLISHED_PRICES } from '../../src/providers/price-table.js';
import { resolvePrice } from '../../src/providers/pricing.js';

const ROOT = join(import.meta.dirname, '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const DOCUMENTS = [
  join(ROOT, 'README.md'),
  ...filesUnder(join(ROOT, 'docs')),
  join(ROOT, 'evals.live.config.ts'),
  join(ROOT, 'src', 'cli', 'init-templates.ts'),
  ...filesUnder(join(ROOT, 'examples')),
];

/** `provider:model` mentions, and bare quoted model ids (`'gpt-…'`, `'claude-…'`, `'o3-…'`) handed to SDKs. */
function namedModels(text: string): string[] {
  const prefixed = [...text.matchAll(/\b(?:openai|anthropic):[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]/g)].map((m) => m[0]);
  const bare = [...text.matchAll(/['"`]((?:gpt-|claude-|o[134]-)[A-Za-z0-9._-]*[A-Za-z0-9])['"`]/g)].map((m) => m[1]!);
  return [...prefixed, ...bare];
}

/** Models a document prices itself under `pricing` (`'openai:llama3.2': { input: 0, output: 0 }`). */
function pricedInText(text: string): Set<string> {
  return new Set([...text.matchAll(/['"]((?:openai|anthropic):[^'"]+)['"]\s*:\s*\{\s*input/g)].map((m) => m[1]!));
}

describe('price coverage', () => {
  it('prices every model family of the capability table (line rows excepted: they name no model)', () => {
    for (const key of MODEL_LINES) expect(MODEL_TABLE.find((r) => `${r.wire}:${r.family}` === key)?.prefix, key).toBe(true);
    const unpriced = MODEL_TABLE.map((r) => `${r.wire}:${r.family}`).filter((key) => !MODEL_LINES.has(key) && !(key in UNPUBLISHED_PRICES) && resolvePrice(key) === undefined);
    expect(unpriced).toEqual([]);
  });

  it('leaves unpriced, with its source and date, only the rows whose price the docs do not publish (no borrowed rate)', () => {
    expect(Object.keys(UNPUBLISHED_PRICES).sort()).toEqual(['openai:gpt-5.6-cyber', 'openai:gpt-6-cyber', 'openai:gpt-6-rosalind', 'openai:gpt-6.2-astra-law']);
    for (const [key, { source, asOf }] of Object.entries(UNPUBLISHED_PRICES)) {
      expect(
        MODEL_TABLE.some((r) => `${r.wire}:${r.family}` === key),
        key,
      ).toBe(true);
      expect(resolvePrice(key), key).toBeUndefined();
      expect(source, key).not.toMatch(/https?:|www\./);
      expect(asOf, key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('prices every model the README, the docs, the examples, the live config and the init templates name', () => {
    const unpriced: string[] = [];
    for (const file of DOCUMENTS) {
      const text = readFileSync(file, 'utf8');
      const own = pricedInText(text);
      for (const model of namedModels(text)) {
        const unpublished = model in UNPUBLISHED_PRICES || `openai:${model}` in UNPUBLISHED_PRICES;
        if (!own.has(model) && !unpublished && resolvePrice(model) === undefined) unpriced.push(`${file.slice(ROOT.length + 1)}: ${model}`);
      }
    }
    expect(unpriced).toEqual([]);
  });

  it('finds the models it checks (the scan is not vacuous)', () => {
    const all = DOCUMENTS.flatMap((file) => namedModels(readFileSync(file, 'utf8')));
    expect(all.length).toBeGreaterThan(10);
    expect(all.some((m) => m.startsWith('anthropic:'))).toBe(true);
  });

  it('records the source and the date of every row', () => {
    for (const [model, price] of [...Object.entries(OPENAI_PRICES), ...Object.entries(ANTHROPIC_PRICES)]) {
      expect(price.source?.trim().length ?? 0, model).toBeGreaterThan(5);
      expect(price.source, model).not.toMatch(/https?:|www\./);
      expect(price.asOf, model).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(price.asOf! <= PRICES_AS_OF, model).toBe(true);
    }
  });
});
