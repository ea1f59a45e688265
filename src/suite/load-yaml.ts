import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { UserError, UserErrors } from '../errors.js';
import { EvalFileSchema, type EvalFile } from './schema.js';
import { allAssertionTypes } from './assertion-types.js';
import { describeIssue, formatPath } from './zod-issues.js';

export interface LoadedYaml {
  file: string;
  data: EvalFile;
  /** 1-based line of each case, by index. */
  caseLines: number[];
  /** Line of the suite's `target:`, where an unknown target is reported. */
  targetLine: number | undefined;
}

/** Reads and validates one YAML eval file; every problem names the file, line and field. */
export async function loadYamlEvalFile(file: string, displayPath = file): Promise<LoadedYaml> {
  const text = await readFile(file, 'utf8');
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new UserErrors(
      doc.errors.map((e) => new UserError(`YAML syntax error: ${e.message.split('\n')[0]}`, { file: displayPath, line: lines.linePos(e.pos[0]).line })),
    );
  }
  const input: unknown = doc.toJS();
  const parsed = EvalFileSchema.safeParse(input);
  if (!parsed.success) {
    throw new UserErrors(
      parsed.error.issues.slice(0, 10).map((issue) => {
        const { path, message } = describeIssue(issue, input, allAssertionTypes);
        return new UserError(message, { file: displayPath, line: lineOf(doc, lines, path), field: formatPath(path) || undefined });
      }),
    );
  }
  const caseLines = parsed.data.cases.map((_, i) => lineOf(doc, lines, ['cases', i]) ?? 1);
  return { file: displayPath, data: parsed.data, caseLines, targetLine: lineOf(doc, lines, ['target']) };
}

/** Line of the deepest node along `path` that exists in the document. */
function lineOf(doc: Document, lines: LineCounter, path: PropertyKey[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node: unknown = doc.getIn(path.slice(0, depth) as Array<string | number>, true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}
