import { readFile } from 'node:fs/promises';
import { CORE_SCHEMA, load } from 'js-yaml';
import type { Document, LineCounter } from 'yaml';
import { UserError, UserErrors } from '../core/errors.js';
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
  /** Line of the suite's `matrix:`, where an unknown matrix target is reported. */
  matrixLine?: number | undefined;
}

/**
 * Reads and validates one YAML eval file; every problem names the file, line and field.
 *
 * Valid files take a fast path: js-yaml (YAML 1.2 core schema, about 5× faster on large suites)
 * and a text scan for the case lines. Only a file with a problem is parsed again with `yaml`'s
 * document model, whose node positions give the exact line of the field at fault (and only then is
 * `yaml` loaded: it adds ~50 ms to every start-up).
 */
export async function loadYamlEvalFile(file: string, displayPath = file): Promise<LoadedYaml> {
  const text = await readFile(file, 'utf8');
  // js-yaml shares aliased nodes, so a billion-laughs file loads small and explodes later, when
  // the cases are copied or written; a file with aliases is first expanded under a bound.
  if (ALIAS.test(text)) await checkAliasExpansion(text, displayPath);
  let input: unknown;
  try {
    input = load(text, { schema: CORE_SCHEMA, filename: displayPath });
  } catch (err) {
    throw await locatedErrors(text, displayPath, undefined, err as { reason?: string; mark?: { line: number } });
  }
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

/** An alias token (`*name`); a false match only costs the bounded expansion check. */
const ALIAS = /(?:^|[\s[{,])\*[^\s[\]{},]/m;

/**
 * How far aliases may multiply the document: `yaml`'s count of an anchor's uses times the aliases
 * nested in it. Room for an anchor reused by thousands of cases; a seven-level alias bomb hits it
 * at its fifth level.
 */
export const MAX_ALIAS_COUNT = 10_000;

/** Throws a located UserError when the file's aliases would expand past MAX_ALIAS_COUNT. */
async function checkAliasExpansion(text: string, file: string): Promise<void> {
  const { LineCounter, parseDocument, visit, isAlias, isCollection, isPair, isScalar } = await import('yaml');
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  // Syntax errors (unknown aliases included) are reported by the usual path.
  if (doc.errors.length > 0) return;
  try {
    doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return;
  } catch (err) {
    if (!/excessive alias count/i.test((err as Error).message)) return;
  }
  // The line given is the alias that expands to the most nodes: the top of the bomb.
  const anchored = new Map<string, unknown>();
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown): number => {
    if (sizes.has(node)) return sizes.get(node)!;
    sizes.set(node, 0); // an alias inside its own anchor adds nothing more
    let n = 1;
    if (isAlias(node)) n = sizeOf(anchored.get(node.source));
    else if (isPair(node)) n = sizeOf(node.key) + sizeOf(node.value);
    else if (isCollection(node)) n = node.items.reduce<number>((sum, item) => sum + sizeOf(item), 1);
    else if (!isScalar(node)) n = 0;
    sizes.set(node, n);
    return n;
  };
  let worst: { line: number; size: number; name: string } | undefined;
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        const size = sizeOf(node);
        if (!worst || size > worst.size) worst = { line: node.range ? lines.linePos(node.range[0]).line : 1, size, name: node.source };
      } else if (node.anchor) anchored.set(node.anchor, node);
    },
  });
  throw new UserError(
    `YAML aliases expand too far${worst ? ` (*${worst.name} alone stands for ${worst.size} nodes)` : ''}: at most ${MAX_ALIAS_COUNT} alias expansions are allowed; write the data out instead`,
    { file, ...(worst ? { line: worst.line } : {}) },
  );
}

/** The errors of a bad file, each at its line: YAML syntax first, else the schema issues. */
async function locatedErrors(
  text: string,
  file: string,
  issues: ReadonlyArray<Parameters<typeof describeIssue>[0]> | undefined,
  syntax?: { reason?: string; mark?: { line: number } },
): Promise<UserErrors> {
  const { LineCounter, parseDocument, isNode } = await import('yaml');
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return new UserErrors(doc.errors.map((e) => new UserError(`YAML syntax error: ${e.message.split('\n')[0]}`, { file, line: lines.linePos(e.pos[0]).line })));
  }
  const input: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  const found = issues ?? EvalFileSchema.safeParse(input).error?.issues ?? [];
  if (found.length === 0) {
    // Only the fast parser objected: report its own words and line.
    return new UserErrors([new UserError(`YAML syntax error: ${syntax?.reason ?? 'unreadable YAML'}`, { file, ...(syntax?.mark ? { line: syntax.mark.line + 1 } : {}) })]);
  }
  return new UserErrors(
    found.slice(0, 10).map((issue) => {
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
