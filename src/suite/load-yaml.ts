import { readFile } from 'node:fs/promises';
import type { Document, LineCounter } from 'yaml';
import { UserError, UserErrors } from '../core/errors.js';
import { EvalFileSchema, type EvalFile } from './schema.js';
import { allAssertionTypes } from './assertion-types.js';
import { describeIssue, formatPath } from './zod-issues.js';
import { MAX_ALIAS_COUNT, parseYamlText, syntaxErrors, yamlDocument } from './yaml-text.js';

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

/**
 * Reads and validates one YAML eval file; every problem names the file, line and field.
 *
 * The text is read under the rules every YAML file shares (yaml-text.ts), then a text scan finds the
 * case lines. Only a file with a problem is parsed again with `yaml`'s document model, whose node
 * positions give the exact line of the field at fault.
 */
export async function loadYamlEvalFile(file: string, displayPath = file): Promise<LoadedYaml> {
  const text = await readFile(file, 'utf8');
  const input = await parseYamlText(text, displayPath);
  const parsed = EvalFileSchema.safeParse(input);
  if (!parsed.success) throw await locatedErrors(text, displayPath, parsed.error.issues);
  return {
    file: displayPath,
    data: parsed.data,
    caseLines: scanCaseLines(
      text,
      (parsed.data.cases ?? []).map((c) => c.id),
    ),
    targetLine: keyLine(text, 'target'),
    ...(parsed.data.matrix ? { matrixLine: keyLine(text, 'matrix') } : {}),
  };
}

/** The schema issues of a file, each at its line. */
async function locatedErrors(text: string, file: string, issues: ReadonlyArray<Parameters<typeof describeIssue>[0]>): Promise<UserErrors> {
  const { isNode } = await import('yaml');
  const { doc, lines } = await yamlDocument(text);
  const syntax = syntaxErrors(doc, lines, file);
  if (syntax) return syntax;
  const input: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  return new UserErrors(
    issues.slice(0, 10).map((issue) => {
      const { path, message } = describeIssue(issue, input, allAssertionTypes);
      return new UserError(message, { file, line: lineOf(doc, lines, isNode, path), field: formatPath(path) || undefined });
    }),
  );
}

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

/** Line of the deepest node along `path` that exists in the document. */
function lineOf(doc: Document, lines: LineCounter, isNode: typeof import('yaml').isNode, path: PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node: unknown = doc.getIn(path.slice(0, depth) as Array<string | number>, true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}
