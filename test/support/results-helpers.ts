/** Reading and validating a results document written by `--json`. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ResultsSchema, type Results } from '../../src/core/results-schema.js';
import { REPO_ROOT } from '../support/cli.js';
import { validateJsonSchema } from './json-schema-lite.js';

export const resultsJsonSchema = JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', 'results.schema.json'), 'utf8')) as Record<string, unknown>;

/**
 * Parses the file and checks it three ways: the zod ResultsSchema (the source of truth), the
 * published JSON Schema file (every keyword it uses), and the top-level required keys.
 */
export function readResults(path: string): Results {
  expect(existsSync(path), `results file ${path} was not written`).toBe(true);
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const parsed = ResultsSchema.safeParse(raw);
  expect(parsed.success ? [] : parsed.error.issues.slice(0, 5), 'results JSON fails ResultsSchema').toEqual([]);
  expect(validateJsonSchema(resultsJsonSchema, raw).slice(0, 10), 'results JSON fails schemas/results.schema.json').toEqual([]);
  const required = resultsJsonSchema.required as string[];
  expect([...required].sort()).toEqual(Object.keys(raw as object).sort());
  return parsed.data!;
}

export function caseOf(results: Results, key: string) {
  const found = results.cases.find((c) => `${c.suite}/${c.id}` === key);
  if (!found) throw new Error(`no case ${key} in results (has ${results.cases.map((c) => `${c.suite}/${c.id}`).join(', ')})`);
  return found;
}
