import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonSchemas, renderSchema } from '../../src/suite/json-schemas.js';
import { REPO_ROOT } from '../support/cli.js';
import { validateJsonSchema } from '../support/json-schema-lite.js';

const SCHEMA_DIR = join(REPO_ROOT, 'schemas');
const generated = jsonSchemas();

describe('schemas/ is generated from the zod schemas', () => {
  it('generates the eval-file and results schemas', () => {
    expect(Object.keys(generated).sort()).toEqual(expect.arrayContaining(['eval-file.schema.json', 'results.schema.json']));
  });

  it.each(Object.keys(generated))('schemas/%s is up to date', (name) => {
    let onDisk: string;
    try {
      onDisk = readFileSync(join(SCHEMA_DIR, name), 'utf8');
    } catch {
      throw new Error(`schemas/${name} is missing: run \`npm run schemas\``);
    }
    expect(onDisk, `schemas/${name} is stale (it differs from the zod schema): run \`npm run schemas\``).toBe(renderSchema(generated[name]));
  });

  it('holds no schema file the generator no longer writes', () => {
    const stale = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json') && !(f in generated));
    expect(stale, `schemas/ holds files that \`npm run schemas\` does not generate; delete them`).toEqual([]);
  });

  it('renders pretty JSON ending in one newline', () => {
    const text = renderSchema({ a: [1] });
    expect(text).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});

describe('the JSON Schema validator used by the CLI tests', () => {
  // The CLI tests validate results documents with test/support/json-schema-lite.ts; make sure
  // it actually rejects what the published results schema forbids.
  const schema = generated['results.schema.json'] as Record<string, unknown>;

  it('rejects a document missing required keys or with wrong types', () => {
    expect(validateJsonSchema(schema, {})).toContain('$: missing required "schemaVersion"');
    expect(validateJsonSchema(schema, { schemaVersion: 2 }).join('\n')).toContain('$.schemaVersion: expected const 1');
    expect(validateJsonSchema(schema, [])).toEqual(['$: expected object, got array']);
  });

  it('validates every eval-file example in evals/ against eval-file.schema.json', async () => {
    const { parse } = await import('yaml');
    const files = readdirSync(join(REPO_ROOT, 'evals'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.eval\.ya?ml$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const doc: unknown = parse(readFileSync(join(REPO_ROOT, 'evals', f), 'utf8'));
      expect(validateJsonSchema(generated['eval-file.schema.json'] as Record<string, unknown>, doc), f).toEqual([]);
      // And a typo in an assertion type is caught by the published schema too.
      // (In a case's list, or a dataset suite's own.)
      const broken = structuredClone(doc) as { cases?: Array<{ assert?: Array<{ type: string }> }>; assert?: Array<{ type: string }> };
      const asserts = broken.cases?.find((c) => c.assert?.length)?.assert ?? broken.assert;
      if (asserts?.length) {
        asserts[0]!.type = 'no-such-type';
        expect(validateJsonSchema(generated['eval-file.schema.json'] as Record<string, unknown>, broken).length, f).toBeGreaterThan(0);
      }
    }
  });
});
