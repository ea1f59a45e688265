import { relative } from 'node:path';
import type { z } from 'zod';
import { UserError, errorMessage } from '../core/errors.js';
import { readUserText } from './user-text-file.js';
import { formatPath } from './zod-issues.js';

/**
 * Reads a results file a command was given: a missing, unreadable or invalid file is bad input
 * (exit 2) that names the file, the argument and the first field at fault.
 */
export async function readResultsFile<S extends z.ZodType>(path: string, cwd: string, flag: string, schema: S, missingHint = ''): Promise<z.infer<S>> {
  const file = relative(cwd, path) || path;
  return parseResults(await readResultsJson(path, file, flag, missingHint), file, flag, schema);
}

/** A results file's JSON, not yet checked against a schema (`merge` compares versions first). */
export async function readResultsJson(path: string, file: string, flag: string, missingHint = ''): Promise<unknown> {
  const text = await readUserText(path, { file, field: flag }, `no such results file${missingHint}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UserError(`not a results file: invalid JSON (${errorMessage(err)})`, { file, field: flag });
  }
}

/** Results JSON checked against `schema`; the first field at fault is named. */
export function parseResults<S extends z.ZodType>(data: unknown, file: string, flag: string, schema: S): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`not an agent-evals results file: ${formatPath(issue.path) || '(top level)'}: ${issue.message}`, { file, field: flag });
  }
  return parsed.data;
}

/**
 * A results file a dry run wrote (`run.dryRun`) holds placeholder replies and the fake judge's grades:
 * compared, priced, retried, re-judged or scored, it would stand for an agent that never ran. Bad
 * input naming the file; `why` says what the command would have done with it.
 */
export function refuseDryRun(run: { dryRun?: boolean | undefined } | undefined, where: { file: string; field?: string }, why: string): void {
  if (run?.dryRun) throw new UserError(`was written by a dry run (\`--dry-run\`: placeholder replies, the fake judge)${why}`, where);
}
