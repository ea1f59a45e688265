import { join, relative, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { ComparableResultsSchema, type ComparableResults } from '../stats/compared-case.js';
import { caseKey } from '../core/matrix.js';
import { UserError } from '../core/errors.js';
import { readResultsFile, refuseDryRun } from '../suite/results-file.js';
import { ResultsSchema, type Results } from '../core/results-schema.js';

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
 * How a missing results file is made, from what the user gave: a name is a saved baseline
 * (`--save-baseline <name>`), a path a run's results (`--json <path>`).
 */
function missingHint(given: string): string {
  return NAME.test(given) && !given.endsWith('.json') ? ` (save it with \`agent-evals run --save-baseline ${given}\`)` : ` (a run writes it with \`agent-evals run --json ${given}\`)`;
}

/**
 * Reads a results file for a comparison, before any target runs: a missing, unreadable or invalid file
 * is bad input (exit 2) that names the file and the field. `given` is the name or path as the user wrote it.
 */
export async function loadComparable(path: string, cwd: string, flag: string, given: string): Promise<ComparableResults> {
  const read = await readResultsFile(path, cwd, flag, ComparableWithKindSchema, missingHint(given));
  return refuseScored(read, path, cwd, flag);
}

/** What a comparison reads, and whether the file is a scored batch (`run.scoredFrom`), which it refuses. */
const ComparableWithKindSchema = ComparableResultsSchema.extend({
  run: z
    .object({ id: z.string(), gitSha: z.string().nullable(), startedAt: z.string(), interrupted: z.boolean().optional(), scoredFrom: z.unknown().optional(), dryRun: z.boolean().optional() })
    .optional(),
});

/**
 * A scored batch (`agent-evals score`) graded recorded traces, and a dry run answered with placeholders,
 * not a run of the agent over the suite: as a baseline, a run compared with it, or a recording to price
 * or retry, either would stand for runs it is not. Refused (exit 2), naming the file.
 */
function refuseScored<T extends { run?: { scoredFrom?: unknown; dryRun?: boolean | undefined } | undefined }>(read: T, path: string, cwd: string, flag: string): T {
  const where = { file: relative(cwd, path) || path, field: flag };
  refuseDryRun(read.run, where, ', not a run of the agent: compare, price and retry real runs');
  if (read.run?.scoredFrom === undefined) return read;
  throw new UserError('is a scored batch of recorded traces (`agent-evals score`), not a run of the agent: compare, price and retry runs of `agent-evals run`', where);
}

/** A results file in full, for `--rejudge`: re-judging reads every recorded trial, not just the counts. */
export async function loadRecorded(path: string, cwd: string, flag: string, given: string): Promise<Results> {
  return refuseScored(await readResultsFile(path, cwd, flag, ResultsSchema, missingHint(given)), path, cwd, flag);
}

/**
 * A baseline that shares no case with what it is compared with compares nothing: every case would be
 * `new` or `removed` and the comparison would pass. That is a stranger's file (another suite's, one a
 * CI cache's fallback key restored), so it is bad input naming the file, before any target runs.
 */
export function checkSharesCases(base: ComparableResults, headKeys: readonly string[], where: { path: string; cwd: string; flag: string; head: string }): void {
  const baseKeys = new Set(base.cases.map(caseKey));
  if (headKeys.some((k) => baseKeys.has(k))) return;
  const held = (keys: readonly string[]) => (keys.length === 0 ? 'no case' : `${keys.length} case${keys.length === 1 ? '' : 's'} (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''})`);
  throw new UserError(
    `shares no case with ${where.head}: the baseline holds ${held([...baseKeys])}, ${where.head} ${held(headKeys)}; is it from another suite or project? (save this one's with \`agent-evals run --save-baseline\`)`,
    {
      file: relative(where.cwd, where.path) || where.path,
      field: where.flag,
    },
  );
}
