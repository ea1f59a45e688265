import type { z } from 'zod';
import { INPUT_PART_TYPES } from '../core/content-parts.js';
import { MATRIX_DIMENSIONS } from '../core/matrix.js';
import { closestName, unknownFieldsMessage } from '../core/closest-name.js';
import { fieldsAt } from './schema-fields.js';

type Issue = z.core.$ZodIssue;

/** `cases[0].assert[1].type` from a zod issue path. */
export function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * One readable message per issue. A discriminated union with an unknown `type` gets a message that
 * names what the union holds (a content part or an assertion), the type and the known ones, rather
 * than zod's generic wording. A union of shapes (`input`: a string or parts) is described by the one
 * branch whose shape the value has, so a bad part inside `input` is named, not the whole `input`.
 */
export function describeIssue(issue: Issue, input: unknown, knownTypes: readonly string[], schema?: z.core.$ZodType): { path: PropertyKey[]; message: string; atKey?: boolean } {
  if (issue.code === 'invalid_union' && (issue as { note?: string }).note === 'No matching discriminator') {
    // zod points the issue at the discriminator itself: `…assert[1].type`.
    const type = valueAt(input, issue.path);
    const [noun, known] = isPartUnion(issue) ? ['part', INPUT_PART_TYPES] : ['assertion', knownTypes];
    const near = typeof type === 'string' ? closestName(type, known) : undefined;
    const meant = near ? `: did you mean ${JSON.stringify(near)}?` : '';
    const message = type === undefined ? `${article(noun)} ${noun} needs a "type"` : `unknown ${noun} type ${JSON.stringify(type)}${meant} (known: ${known.join(', ')})`;
    return { path: issue.path, message };
  }
  if (issue.code === 'invalid_union') {
    const nested = matchedBranch(issue)[0];
    if (nested) return describeIssue(nested, input, knownTypes, schema);
    // A branch of the value's own type refused it (2.5 where a whole number or an object is taken): its message.
    const fitting = rootTypeIssues(issue).filter((i) => i && fits(i.expected, kindOf(valueAt(input, issue.path))));
    if (fitting.length === 1) return { path: issue.path, message: fitting[0]!.message };
    // No branch has the value's shape: say what the union takes, rather than zod's bare "Invalid input".
    const expected = shapesExpected(issue);
    if (expected) return { path: issue.path, message: `expected ${expected}, received ${kindOf(valueAt(input, issue.path))}` };
  }
  if (issue.code === 'unrecognized_keys' && issue.path.at(-1) === 'matrix') {
    return { path: [...issue.path, issue.keys[0] ?? ''], message: `unknown matrix dimension ${JSON.stringify(issue.keys[0])} (the dimensions are ${MATRIX_DIMENSIONS.join(', ')})` };
  }
  if (issue.code === 'unrecognized_keys') {
    // At the key's own line: a misspelt `asert:` over a list is on its line, not the list's first item's.
    return { path: [...issue.path, issue.keys[0] ?? ''], message: unknownFieldsMessage(issue.keys, schema ? fieldsAt(schema, issue.path, input) : []), atKey: true };
  }
  return { path: issue.path, message: issue.message };
}

/**
 * The issues of the one branch of a union whose shape the value has (its issues are not all "expected
 * <type>" at the value itself), at paths from the union's root; none when no branch, or several, matched.
 */
export function matchedBranch(issue: Issue & { code: 'invalid_union' }): Issue[] {
  const matched = issue.errors.filter((branch) => branch.length > 0 && !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0));
  if (matched.length !== 1) return [];
  return matched[0]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
}

/** Each branch's one issue when it is the value's type refused at the union's root; else undefined for that branch. */
function rootTypeIssues(issue: Issue & { code: 'invalid_union' }): Array<(Issue & { code: 'invalid_type' }) | undefined> {
  return issue.errors.map((branch) => (branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0].path.length === 0 ? branch[0] : undefined));
}

/** Whether a value of `kind` is of the type a branch expected (zod names a whole number `int`). */
function fits(expected: string, kind: string): boolean {
  return expected === kind || (expected === 'int' && kind === 'number');
}

/** `string or array` when every branch of a union refused the value's type itself; else undefined. */
function shapesExpected(issue: Issue & { code: 'invalid_union' }): string | undefined {
  const roots = rootTypeIssues(issue);
  if (!roots.length || roots.some((r) => r === undefined)) return undefined;
  return [...new Set(roots.map((r) => r!.expected))].join(' or ');
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** The content-part union (core/content-parts.ts), known by the types it offers. */
function isPartUnion(issue: Issue): boolean {
  const options = (issue as { options?: unknown[] }).options ?? [];
  return options.length === INPUT_PART_TYPES.length && INPUT_PART_TYPES.every((t) => options.includes(t));
}

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? 'an' : 'a';
}

export function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}
