import { join, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { ComparableResultsSchema, type ComparableResults } from '../stats/compared-case.js';
import { readResultsFile } from './results-file.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `--save-baseline <name>`: a plain name, the file `<outputDir>/baselines/<name>.json`. */
export function baselineName(value: string): string {
  if (!NAME.test(value) || value.endsWith('.json')) throw new InvalidArgumentError('expected a name of letters, digits, ".", "_" and "-" (the file is <outputDir>/baselines/<name>.json)');
  return value;
}

/** Where a saved baseline lives. */
export function baselinePath(outputDir: string, name: string): string {
  return join(outputDir, 'baselines', `${name}.json`);
}

/** `--baseline main` is a saved baseline; `--baseline runs/x.json` (a path or a .json name) a results file. */
export function resolveBaseline(value: string, outputDir: string, cwd: string): string {
  return NAME.test(value) && !value.endsWith('.json') ? baselinePath(outputDir, value) : resolve(cwd, value);
}

/**
 * Reads a results file for a comparison, before any target runs: a missing, unreadable or invalid file
 * is bad input (exit 2) that names the file and the field.
 */
export async function loadComparable(path: string, cwd: string, flag: string): Promise<ComparableResults> {
  return readResultsFile(path, cwd, flag, ComparableResultsSchema, ' (save one with `agent-evals run --save-baseline`)');
}
