/**
 * A JSON Schema made fit for Gemini's `responseJsonSchema`, which takes only these keywords (SDK
 * 2.32 GenerateContentConfig.responseJsonSchema; Gemini API docs: Structured output, "JSON Schema
 * support", read 2026-12-04): `$id $defs $ref $anchor type format title description enum items
 * prefixItems minItems maxItems minimum maximum anyOf oneOf properties additionalProperties required
 * propertyOrdering`. Any other keyword (`const`, `pattern`, string lengths, `allOf`, `$schema`…) is
 * taken off and spelled out in the node's description, where the model still reads it; the judge's
 * own validation of the answer still enforces it.
 */
const KEPT = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

/** Keywords whose value holds subschemas: by name (a map), or as one schema or a list of them. */
const SCHEMA_MAPS = new Set(['properties', '$defs']);
const SCHEMA_VALUES = new Set(['items', 'prefixItems', 'anyOf', 'oneOf', 'additionalProperties']);

export function toGeminiResponseSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return convert(schema) as Record<string, unknown>;
}

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT.has(key)) dropped.push(`${key}: ${JSON.stringify(value)}`);
    else if (SCHEMA_MAPS.has(key) && isRecord(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
    else if (SCHEMA_VALUES.has(key)) out[key] = convert(value);
    else out[key] = value;
  }
  if (dropped.length > 0) out.description = [typeof out.description === 'string' ? out.description : '', `(${dropped.join(', ')})`].filter(Boolean).join(' ');
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
