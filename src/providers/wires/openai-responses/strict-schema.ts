/**
 * Whether a function tool's parameters may go out with `strict: true`: strict mode takes a subset
 * of JSON Schema (OpenAI docs: Structured Outputs guide, "Supported schemas", as the fake's rules
 * record it, read 2026-12-01; the SDK's FunctionTool `strict`, read 2026-12-04): every object lists all its properties in
 * `required` and sets `additionalProperties: false`, and only the keywords below appear. A schema
 * outside it goes out non-strict rather than be refused with a 400.
 */
import { isObject } from '../../json-body.js';

const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'title',
  '$schema',
  '$defs',
  'definitions',
  '$ref',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

export function fitsStrictMode(schema: unknown): boolean {
  return isObject(schema) && schema.type === 'object' && fits(schema);
}

function fits(node: Record<string, unknown>): boolean {
  if (Object.keys(node).some((k) => !STRICT_KEYWORDS.has(k))) return false;
  const isObjectSchema = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || node.properties !== undefined;
  if (isObjectSchema) {
    if (node.additionalProperties !== false) return false;
    const required = Array.isArray(node.required) ? node.required : undefined;
    if (!required || Object.keys(isObject(node.properties) ? node.properties : {}).some((k) => !required.includes(k))) return false;
  }
  const children: unknown[] = [
    ...(isObject(node.properties) ? Object.values(node.properties) : []),
    ...(isObject(node.$defs) ? Object.values(node.$defs) : []),
    ...(isObject(node.definitions) ? Object.values(node.definitions) : []),
    ...(node.items !== undefined ? [node.items] : []),
    ...(Array.isArray(node.anyOf) ? (node.anyOf as unknown[]) : []),
  ];
  return children.every((c) => isObject(c) && fits(c));
}
