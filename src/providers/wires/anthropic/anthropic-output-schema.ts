/**
 * A JSON Schema made fit for Anthropic's `output_config.format`, which takes only a subset of JSON
 * Schema and answers 400 to the rest ("output_config.format.schema: For 'number' type, property
 * 'minimum' is not supported"). Read in the Anthropic docs, Structured outputs, "JSON Schema
 * limitations" (2026-12-01): every object needs `additionalProperties: false`; numeric constraints
 * (minimum, maximum, exclusive bounds, multipleOf), string lengths, and array bounds other than
 * `minItems` 0 or 1 are not supported. As the official SDK helpers do, an unsupported constraint
 * moves into the field's description, where the model still reads it; our own validation of the
 * answer (the judges' `read`) still enforces it.
 */

const UNSUPPORTED = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'minItems'] as const;

/** Subschemas by keyword: a map of schemas, one schema or a list of them. */
const MAPS = ['properties', '$defs', 'definitions'] as const;
const LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const;

export function toOutputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return convert(schema) as Record<string, unknown>;
}

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  const moved: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if ((UNSUPPORTED as readonly string[]).includes(key) && !(key === 'minItems' && (value === 0 || value === 1))) moved.push(`${key}: ${JSON.stringify(value)}`);
    else if ((MAPS as readonly string[]).includes(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
    else if ((LISTS as readonly string[]).includes(key) || key === 'items' || key === 'not') out[key] = convert(value);
    else out[key] = value;
  }
  if (moved.length > 0) out.description = [typeof out.description === 'string' ? out.description : '', `(${moved.join(', ')})`].filter(Boolean).join(' ');
  if (isObjectSchema(out) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function isObjectSchema(s: Record<string, unknown>): boolean {
  return s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || (s.type === undefined && isObject(s.properties));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
