import type { UserErrors } from '../core/errors.js';
import { readEvalFileBytes } from './eval-file-bytes.js';
import { PARSE_ONCE } from '../core/parse-once.js';
import { EvalFileSchema, type EvalFile } from './schema.js';
import { allAssertionTypes } from './assertion-types.js';
import { describeIssue } from './zod-issues.js';
import { parseYamlText } from './yaml-text.js';
import { errorsAtLines } from './yaml-issues.js';
import { resolveUserAssertionEntries } from './user-assertion-entries.js';
import { NO_USER_ASSERTIONS, type UserAssertions } from '../assertions/user-assertion.js';

export interface LoadedYaml {
  file: string;
  data: EvalFile;
  /** 1-based line of each case, by index. */
  caseLines: number[];
  /** Line of the suite's `target:`, where an unknown target is reported. */
  targetLine: number | undefined;
  /** Line of the suite's `matrix:`, where an unknown matrix target is reported. */
  matrixLine?: number | undefined;
}

/** What a load gives that the file alone decides. */
type Parsed = Omit<LoadedYaml, 'file'>;

/**
 * Reads and validates one YAML eval file; every problem names the file, line and field.
 *
 * The text is read under the rules every YAML file shares (yaml-text.ts), then a text scan finds
 * the case lines. Only a file with a problem is read again,
 * by one js-yaml pass that follows the paths of the reported issues to their lines
 * (yaml-path-lines.ts): an error costs at most one more read.
 */
export async function loadYamlEvalFile(file: string, displayPath = file, userAssertions: UserAssertions = NO_USER_ASSERTIONS): Promise<LoadedYaml> {
  const bytes = await readEvalFileBytes(file, displayPath);
  const parsed = await parseEvalFile(bytes.toString('utf8'), displayPath, userAssertions);
  return { file: displayPath, ...parsed };
}

/** An eval file's text validated as `loadYamlEvalFile` validates a file (the drafts review checks an edit with it before writing). */
export async function parseEvalFile(text: string, displayPath: string, userAssertions: UserAssertions = NO_USER_ASSERTIONS): Promise<Parsed> {
  const input = await parseYamlText(text, displayPath);
  const userProblems = resolveUserAssertionEntries(input, userAssertions);
  if (userProblems.length > 0) throw await errorsAtLines(text, displayPath, userProblems.slice(0, MAX_REPORTED));
  const parsed = EvalFileSchema.safeParse(input, PARSE_ONCE);
  if (!parsed.success) throw await locatedErrors(text, displayPath, input, parsed.error.issues);
  return {
    data: parsed.data,
    caseLines: scanCaseLines(
      text,
      (parsed.data.cases ?? []).map((c) => c.id),
    ),
    targetLine: keyLine(text, 'target'),
    ...(parsed.data.matrix ? { matrixLine: keyLine(text, 'matrix') } : {}),
  };
}

/** The first schema issues of a file, each at its line. */
function locatedErrors(text: string, file: string, input: unknown, issues: ReadonlyArray<Parameters<typeof describeIssue>[0]>): Promise<UserErrors> {
  return errorsAtLines(
    text,
    file,
    issues.slice(0, MAX_REPORTED).map((issue) => describeIssue(issue, input, allAssertionTypes, EvalFileSchema)),
  );
}

/** Issues reported per file; the rest are found once these are fixed. */
const MAX_REPORTED = 10;

/**
 * Each case's line: where its `id:` stands. One pass over the lines, matching ids in case order, so
 * an `id:` quoted inside an earlier input cannot be taken for a later case's.
 */
function scanCaseLines(text: string, ids: string[]): number[] {
  const out: number[] = [];
  const idAt = /(?:^|[\s{,-])id\s*:\s*(?:"([^"]*)"|'([^']*)'|([^\s,}#]+))/;
  let next = 0;
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo += 1;
    if (next >= ids.length) break;
    const m = idAt.exec(line);
    if (m && (m[1] ?? m[2] ?? m[3]) === ids[next]) {
      out.push(lineNo);
      next += 1;
    }
  }
  // Ids written in a way the scan does not recognise fall back to the previous case's line.
  while (out.length < ids.length) out.push(out.at(-1) ?? 1);
  return out;
}

/** Line of a top-level key. */
function keyLine(text: string, key: string): number | undefined {
  const i = text.split('\n').findIndex((l) => l.startsWith(`${key}:`));
  return i === -1 ? undefined : i + 1;
}
