import { createRequire } from 'node:module';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type { FormatsPlugin } from 'ajv-formats';
import { errorMessage } from '../core/errors.js';
import { pointerSegments, schemaRule } from './json-schema-issues.js';
import { safeRegex } from './safe-regex.js';

/**
 * The one place Ajv is built and user schemas are compiled, so its options (and its regex
 * engine: `pattern` runs in RE2, or under a time budget) are decided here. Ajv is loaded on first use: a suite without `jsonSchema`
 * does not pay its start-up cost.
 */

export type Dialect = 'draft 2020-12' | 'draft 2019-09' | 'draft-07';

/** `$schema` URIs (without a trailing `#`); no `$schema` means draft 2020-12. */
const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', 'draft 2020-12'],
  ['https://json-schema.org/draft/2019-09/schema', 'draft 2019-09'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
]);

const OPTIONS: Options = {
  // The failure lists everything that failed, not only the first.
  allErrors: true,
  // `pattern` matches code points: `\p{L}`, `.` on an emoji.
  unicodeRegExp: true,
  // An unknown keyword or format, or one that does nothing where it stands, is a load error: a
  // misspelt `minLenght` would otherwise check nothing and pass every reply.
  strict: true,
  // ...but these are valid JSON Schema: `minimum` without `type`, `required` naming a key not
  // under `properties`, `prefixItems` without `items`.
  strictTypes: false,
  strictRequired: false,
  strictTuples: false,
  // Two eval files may use schemas with the same `$id`.
  addUsedSchema: false,
  logger: false,
  // `code` names the engine only in standalone code, which is never generated here.
  code: { regExp: Object.assign(ajvRegExp, { code: 'safeRegex' }) },
};

/**
 * Ajv calls `test`; a pattern over its time budget throws, and the check reports the message.
 * `toString` is Ajv's key for sharing a pattern, so it must tell patterns apart.
 */
function ajvRegExp(pattern: string, flags: string) {
  const re = safeRegex(pattern, flags);
  return {
    test(text: string): boolean {
      const result = re.exec(text);
      if (!result.ok) throw new Error(result.message);
      return result.match !== null;
    },
    toString: () => re.toString(),
  };
}

/** What the three dialect classes share. */
type AjvCore = InstanceType<typeof import('ajv/dist/core.js').default>;

const require = createRequire(import.meta.url);
const instances = new Map<Dialect, AjvCore>();

function ajvFor(dialect: Dialect): AjvCore {
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv =
      dialect === 'draft-07'
        ? new (require('ajv') as typeof import('ajv')).Ajv(OPTIONS)
        : dialect === 'draft 2019-09'
          ? new (require('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(OPTIONS)
          : new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(OPTIONS);
    (require('ajv-formats') as { default: FormatsPlugin }).default(ajv);
    instances.set(dialect, ajv);
  }
  return ajv;
}

export type CompiledSchema =
  | { ok: true; dialect: Dialect; validate: (value: unknown) => ErrorObject[] }
  /** `path`: where in the schema the problem is, when known (for the file's line). */
  | { ok: false; error: string; path: string[] };

const byObject = new WeakMap<object, CompiledSchema>();
const byText = new Map<string, CompiledSchema>();

/**
 * Compiles a schema once: trials share the validator of their spec object, and a schema built
 * anew in every `check(t)` is found again by its JSON text.
 */
export function compileJsonSchema(schema: Record<string, unknown>): CompiledSchema {
  const known = byObject.get(schema);
  if (known) return known;
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (e) {
    return { ok: false, error: `the schema is not JSON (${errorMessage(e)})`, path: [] };
  }
  let compiled = byText.get(text);
  if (!compiled) {
    compiled = compile(schema);
    byText.set(text, compiled);
  }
  byObject.set(schema, compiled);
  return compiled;
}

function compile(schema: Record<string, unknown>): CompiledSchema {
  const declared = schema.$schema;
  const dialect = declared === undefined ? 'draft 2020-12' : typeof declared === 'string' ? DIALECTS.get(declared.replace(/#$/, '')) : undefined;
  if (!dialect) {
    const supported = [...DIALECTS.keys()].map((uri) => JSON.stringify(uri)).join(', ');
    return { ok: false, error: `unsupported $schema ${JSON.stringify(declared)} (supported: ${supported}; none means draft 2020-12)`, path: ['$schema'] };
  }
  const ajv = ajvFor(dialect);
  if (!ajv.validateSchema(schema)) {
    // The first error is the most direct; the rest are usually the same fault seen from `anyOf`.
    const first = ajv.errors?.[0];
    return { ok: false, error: `${first ? schemaRule(first) : 'is invalid'} (${dialect})`, path: first ? pointerSegments(first.instancePath) : [] };
  }
  // `x-` keywords are annotations (as in OpenAPI): declared on first sight, then compiled again.
  for (;;) {
    try {
      const validate: ValidateFunction & { $async?: boolean } = ajv.compile(schema);
      // An async validator answers with a promise, which would read as a pass.
      if (validate.$async) return { ok: false, error: '"$async" schemas are not supported', path: ['$async'] };
      return {
        ok: true,
        dialect,
        validate: (value) => (validate(value) ? [] : [...(validate.errors ?? [])]),
      };
    } catch (e) {
      const message = errorMessage(e);
      const annotation = /^strict mode: unknown keyword: "(x-[^"]*)"/.exec(message)?.[1];
      if (annotation && !ajv.getKeyword(annotation)) {
        ajv.addKeyword(annotation);
        continue;
      }
      return { ok: false, error: strictMessage(message), path: [] };
    }
  }
}

/** Ajv's wording, adjusted: here a strict-mode finding refuses the schema, it is not "ignored". */
function strictMessage(message: string): string {
  const unknownKeyword = /^strict mode: unknown keyword: ("[^"]*")/.exec(message);
  if (unknownKeyword) return `unknown keyword ${unknownKeyword[1]} (it would check nothing; name an annotation "x-…")`;
  const unknownFormat = /^unknown format ("[^"]*") ignored in schema at path "([^"]*)"/.exec(message);
  if (unknownFormat) return `unknown format ${unknownFormat[1]} at ${unknownFormat[2]}`;
  return message.replace(/^strict mode: /, '');
}
