import { UserError } from '../core/errors.js';
import { PARSE_ONCE } from '../core/parse-once.js';
import { NO_USER_ASSERTIONS, type UserAssertions } from '../assertions/user-assertion.js';
import { readEvalFileBytes } from './eval-file-bytes.js';
import { allAssertionTypes } from './assertion-types.js';
import { describeIssue } from './zod-issues.js';
import { parseYamlText } from './yaml-text.js';
import { errorsAtLines } from './yaml-issues.js';
import { resolveUserAssertionEntries } from './user-assertion-entries.js';
import { ScoreFileSchema, type ScoreFile } from './score-file-schema.js';
import type { TsAssertionSpec } from './schema.js';
import type { ModelRef } from '../judges/spec.js';
import type { PlannedCase } from './plan.js';

/** The files `agent-evals score --scoring` reads: `*.score.yaml` (or `.yml`). */
export const SCORE_FILE = /\.score\.ya?ml$/;

/**
 * What grades recorded traces: a scoring file's assertions and `where:`, or an eval suite's suite-level
 * assertions (`score --suite`, which match every trace). Its scored cases are named `<name>/<trace id>`.
 */
export interface Scoring {
  name: string;
  /** The file it came from, as shown (a scoring file, or the eval file of `--suite`). */
  file: string;
  /** Where its assertions are written, for errors and reports. */
  line: number | null;
  where?: ScoreFile['where'];
  judge?: ModelRef;
  onlyTools?: string[];
  assertions: TsAssertionSpec[];
  /** A TS suite's `check(t)` (`--suite` of a dataset suite written in TypeScript). */
  check?: PlannedCase['check'];
}

/**
 * Reads and validates one scoring file; every problem names the file, line and field, with the
 * eval file's wording (an unknown assertion type lists the known ones).
 */
export async function loadScoreFile(file: string, display: string, userAssertions: UserAssertions = NO_USER_ASSERTIONS): Promise<Scoring> {
  const text = (await readEvalFileBytes(file, display)).toString('utf8');
  const input = await parseYamlText(text, display);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new UserError('a scoring file is a mapping: { name, where?, assert: [...] }', { file: display, line: 1 });
  const problems = resolveUserAssertionEntries(input, userAssertions);
  if (problems.length > 0) throw await errorsAtLines(text, display, problems);
  const parsed = ScoreFileSchema.safeParse(input, PARSE_ONCE);
  if (!parsed.success)
    throw await errorsAtLines(
      text,
      display,
      parsed.error.issues.slice(0, 10).map((issue) => describeIssue(issue, input, allAssertionTypes, ScoreFileSchema)),
    );
  const d = parsed.data;
  const at = text.split('\n').findIndex((l) => l.startsWith('assert:'));
  return {
    name: d.name,
    file: display,
    line: at === -1 ? null : at + 1,
    ...(d.where ? { where: d.where } : {}),
    ...(d.judge ? { judge: d.judge } : {}),
    ...(d.onlyTools ? { onlyTools: d.onlyTools } : {}),
    assertions: d.assert,
  };
}
