import type { z } from 'zod';
import { formatPath, matchedBranch } from '../suite/zod-issues.js';
import { unknownFieldsMessage } from '../core/closest-name.js';
import { fieldsAt } from '../suite/schema-fields.js';
import { TARGET_KINDS, targetKindIndex } from '../targets/config-schema.js';

type Issue = z.core.$ZodIssue;

/**
 * One message for a target that matched no kind of the union: zod says only "Invalid input". The
 * keys present pick the kind the user meant (`command` → command target, `url` → HTTP, `model` →
 * model agent, a function or `function` → function target), and that kind's own problems are named.
 */
export function describeTargetIssue(issue: Issue, value: unknown): { path: PropertyKey[]; message: string } | undefined {
  if (issue.path[0] !== 'targets' || issue.path.length < 2) return undefined;
  const path = issue.path.slice(0, 2);
  const branch = targetKindIndex(value);
  if (branch === undefined) {
    return { path, message: `expected a target: ${TARGET_KINDS.map((k) => k.shape).join(', or ')}; got ${kindOfValue(value)}` };
  }
  // zod reports the union as a whole, or (when one kind nearly matched) that kind's issue alone.
  const whole = issue.code === 'invalid_union' && issue.path.length === 2;
  const fields = (i: Issue) => fieldsAt(TARGET_KINDS[branch]!.schema, i.path, value);
  const problems = whole ? (issue.errors[branch] ?? []).map((i) => describeNested(i, fields)) : [describeNested({ ...issue, path: issue.path.slice(2) }, fields)];
  return { path, message: `expected ${TARGET_KINDS[branch]!.shape}: ${problems.join('; ')}` };
}

/** What a value is, for "got …" in an error: `null`, `an array`, `an object with keys a, b`, or its typeof. */
export function kindOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with ${Object.keys(value).length ? `keys ${Object.keys(value).join(', ')}` : 'no keys'}`;
  return typeof value;
}

/** A field's problem, `field: message`, without zod's bare "Invalid input" wording. */
function describeNested(issue: Issue, fields: (issue: Issue) => string[]): string {
  const where = formatPath(issue.path);
  const prefix = where ? `${where}: ` : '';
  if (issue.code === 'unrecognized_keys') return prefix + unknownFieldsMessage(issue.keys, fields(issue));
  if (issue.code === 'invalid_union') {
    // A union with a message of its own (an MCP server: command or url) says what is wrong better than its branches.
    if (issue.message !== 'Invalid input') return prefix + issue.message;
    // A nested union (a model spec: string or object): the branch whose type matched says what is wrong.
    const matched = matchedBranch(issue);
    if (matched.length > 0) return matched.map((i) => describeNested(i, fields)).join('; ');
    const expected = issue.errors.flatMap((b) => b.map((i) => (i.code === 'invalid_type' ? i.expected : undefined))).filter(Boolean);
    return `${prefix}expected ${[...new Set(expected)].join(' or ') || 'a valid value'}`;
  }
  return prefix + issue.message.replace(/^Invalid input: /, '');
}
