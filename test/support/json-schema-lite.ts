/**
 * A small JSON Schema validator for exactly the keywords `z.toJSONSchema` emits into schemas/
 * (no ajv in this repo). An unknown keyword throws, so a schema that grows new keywords makes
 * the tests fail loudly instead of validating less than it seems.
 */
type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(['$id', '$schema', 'title', 'description', 'default', 'examples', 'id']);
const HANDLED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'minItems',
  'pattern',
  'propertyNames',
  'oneOf',
  '$ref',
  '$defs',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function matchesType(v: unknown, type: string): boolean {
  const t = typeOf(v);
  return t === type || (type === 'number' && t === 'integer');
}

/** Every violation, as `path: problem` (empty when the value is valid). */
export function validateJsonSchema(schema: Schema, value: unknown, path = '$', root: Schema = schema): string[] {
  const errors: string[] = [];
  const sub = (s: Schema, v: unknown, p: string) => validateJsonSchema(s, v, p, root);
  for (const key of Object.keys(schema)) {
    if (!HANDLED.has(key) && !ANNOTATIONS.has(key)) throw new Error(`json-schema-lite: unsupported keyword "${key}" at ${path}`);
  }
  if (typeof schema.$ref === 'string') {
    const m = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
    const target = m ? (root.$defs as Record<string, Schema> | undefined)?.[m[1]!] : undefined;
    if (!target) throw new Error(`json-schema-lite: cannot resolve $ref ${schema.$ref} at ${path}`);
    errors.push(...sub(target, value, path));
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => matchesType(value, t))) return [`${path}: expected ${types.join(' | ')}, got ${typeOf(value)}`];
  }
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) errors.push(`${path}: expected const ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) errors.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${path}: ${value} < minimum ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${path}: ${value} > maximum ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) errors.push(`${path}: ${value} <= exclusiveMinimum ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) errors.push(`${path}: ${value} >= exclusiveMaximum ${schema.exclusiveMaximum}`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) errors.push(`${path}: shorter than ${schema.minLength}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) errors.push(`${path}: does not match ${schema.pattern}`);
  }
  if (Array.isArray(schema.anyOf)) {
    const ok = (schema.anyOf as Schema[]).some((s) => sub(s, value, path).length === 0);
    if (!ok) errors.push(`${path}: matches no anyOf branch`);
  }
  if (Array.isArray(schema.oneOf)) {
    const matching = (schema.oneOf as Schema[]).filter((s) => sub(s, value, path).length === 0).length;
    if (matching !== 1) errors.push(`${path}: matches ${matching} oneOf branches, expected exactly 1`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errors.push(`${path}: fewer than ${schema.minItems} items`);
    if (schema.items && typeof schema.items === 'object') value.forEach((v, i) => errors.push(...sub(schema.items as Schema, v, `${path}[${i}]`)));
  }
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const req of (schema.required ?? []) as string[]) if (!(req in obj)) errors.push(`${path}: missing required "${req}"`);
    for (const [k, v] of Object.entries(obj)) {
      if (schema.propertyNames) errors.push(...sub(schema.propertyNames as Schema, k, `${path}{${k}}`));
      if (k in props) errors.push(...sub(props[k]!, v, `${path}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property "${k}"`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') errors.push(...sub(schema.additionalProperties as Schema, v, `${path}.${k}`));
    }
  }
  return errors;
}
