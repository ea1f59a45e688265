import { errorMessage } from '../core/errors.js';
import { z } from 'zod';
import { assertionObject, defineAssertion } from './define.js';
import { binary, plural, replySize, show } from './format.js';
import { parsePath, readPath } from './json-path.js';
import { deepEqual, parseJson } from './json-value.js';
import { describeSchemaIssue } from './json-schema-issues.js';
import { compileJsonSchema } from './json-schema-validator.js';

/**
 * Assertions over the reply parsed as JSON. The reply must be JSON as-is (surrounding
 * whitespace allowed): a reply wrapped in a Markdown code fence is not JSON, and says so.
 */

function notJson(head: string, reply: string, error: string): { score: number; message: string } {
  return { score: 0, message: `${head}: ${replySize(reply)} is not JSON (${error})` };
}

export const isJson = defineAssertion(assertionObject('isJson', {}), (_spec, ctx) => {
  const parsed = parseJson(ctx.reply);
  if (!parsed.ok) return notJson('isJson', ctx.reply, parsed.error);
  return { score: 1, message: `isJson: reply parses as JSON (${jsonKind(parsed.value)})` };
});

function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

export const jsonPath = defineAssertion(
  assertionObject('jsonPath', {
    path: z.string().min(1),
    equals: z.unknown().optional(),
    exists: z.boolean().optional(),
  }).superRefine((spec, ctx) => {
    const parsed = parsePath(spec.path);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['path'], message: `invalid JSON path: ${parsed.error}` });
    if (spec.equals !== undefined && spec.exists === false) {
      ctx.addIssue({ code: 'custom', path: ['exists'], message: 'jsonPath cannot both require a value (equals) and its absence (exists: false)' });
    }
  }),
  (spec, ctx) => {
    const wantsValue = spec.equals !== undefined;
    const wantsPresent = wantsValue || spec.exists !== false;
    const head = `jsonPath ${spec.path} ${wantsValue ? `equals ${show(spec.equals)}` : wantsPresent ? 'exists' : 'is absent'}`;
    const parsed = parseJson(ctx.reply);
    if (!parsed.ok) return notJson(head, ctx.reply, parsed.error);
    const path = parsePath(spec.path);
    // The schema rejects bad paths; this guards a spec that skipped validation.
    if (!path.ok) return { score: 0, message: `${head}: invalid JSON path: ${path.error}` };
    const read = readPath(parsed.value, path.segments);
    if (!read.found) return { score: binary(!wantsPresent), message: `${head}: not found (${read.missing})` };
    const ok = wantsValue ? deepEqual(read.value, spec.equals) : wantsPresent;
    return { score: binary(ok), message: `${head}: found ${show(read.value)}` };
  },
);

const MAX_ISSUES = 3;

export const jsonSchema = defineAssertion(
  assertionObject('jsonSchema', { schema: z.record(z.string(), z.unknown()) }).superRefine((spec, ctx) => {
    // An unusable schema is a load error: the eval file is wrong, not the agent. Compiling here
    // also means every trial finds the validator ready.
    const compiled = compileJsonSchema(spec.schema);
    if (!compiled.ok) ctx.addIssue({ code: 'custom', path: ['schema', ...compiled.path], message: `invalid JSON Schema: ${compiled.error}` });
  }),
  (spec, ctx) => {
    const parsed = parseJson(ctx.reply);
    if (!parsed.ok) return notJson('jsonSchema', ctx.reply, parsed.error);
    const compiled = compileJsonSchema(spec.schema);
    // The schema rejects unusable schemas; this guards a spec that skipped validation.
    if (!compiled.ok) return { score: 0, message: `jsonSchema: invalid JSON Schema: ${compiled.error}` };
    let issues;
    try {
      issues = compiled.validate(parsed.value);
    } catch (e) {
      // A `pattern` over its time budget.
      return { score: 0, message: `jsonSchema: ${errorMessage(e)}` };
    }
    if (issues.length === 0) return { score: 1, message: 'jsonSchema: reply matches the schema' };
    const listed = issues.slice(0, MAX_ISSUES).map((issue) => describeSchemaIssue(issue, parsed.value));
    const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
    return {
      score: 0,
      message: `jsonSchema: reply does not match the schema (${plural(issues.length, 'issue')}): ${listed.join('; ')}${more}`,
    };
  },
);

export const structureAssertions = [isJson, jsonPath, jsonSchema] as const;
