import { z } from 'zod';
import { assertionObject, defineAssertion } from './define.js';
import { binary, replySize, show } from './format.js';
import { parsePath, readPath } from './json-path.js';
import { deepEqual, parseJson } from './json-value.js';

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

const compiled = new WeakMap<object, z.ZodType>();

/** Compiling a schema is the costly part, so it happens once per spec object (trials share it). */
function compile(schema: Record<string, unknown>): z.ZodType {
  let zod = compiled.get(schema);
  if (!zod) {
    zod = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    compiled.set(schema, zod);
  }
  return zod;
}

const MAX_ISSUES = 3;

export const jsonSchema = defineAssertion(
  assertionObject('jsonSchema', { schema: z.record(z.string(), z.unknown()) }).superRefine((spec, ctx) => {
    // An unusable schema is a load error: the eval file is wrong, not the agent.
    try {
      compile(spec.schema);
    } catch (e) {
      ctx.addIssue({ code: 'custom', path: ['schema'], message: `invalid JSON Schema: ${e instanceof Error ? e.message : String(e)}` });
    }
  }),
  (spec, ctx) => {
    const parsed = parseJson(ctx.reply);
    if (!parsed.ok) return notJson('jsonSchema', ctx.reply, parsed.error);
    const result = compile(spec.schema).safeParse(parsed.value);
    if (result.success) return { score: 1, message: 'jsonSchema: reply matches the schema' };
    const issues = result.error.issues;
    const listed = issues.slice(0, MAX_ISSUES).map((i) => `${pathText(i.path)}: ${i.message}`);
    const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
    return {
      score: 0,
      message: `jsonSchema: reply does not match the schema (${issues.length} ${issues.length === 1 ? 'issue' : 'issues'}): ${listed.join('; ')}${more}`,
    };
  },
);

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : `${acc}.${String(seg)}`), '$');
}

export const structureAssertions = [isJson, jsonPath, jsonSchema] as const;
