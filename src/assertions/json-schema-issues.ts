import type { ErrorObject } from 'ajv';
import { show } from './format.js';

/**
 * One Ajv error as a line of a failure message: where in the reply (`$.items[0].sku`), what the
 * schema wanted, and the value found there when it is short enough to read (a scalar).
 */
export function describeSchemaIssue(error: ErrorObject, reply: unknown): string {
  const { path, value } = locate(reply, pointerSegments(error.instancePath));
  const found = value === null || ['string', 'number', 'boolean'].includes(typeof value) ? ` (found ${show(value)})` : '';
  return `${path}: ${schemaRule(error)}${found}`;
}

/** What the failed keyword asks for, in Ajv's words made specific where they are vague. */
export function schemaRule(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const message = error.message ?? `fails "${error.keyword}"`;
  switch (error.keyword) {
    case 'additionalProperties':
      return `must not have the additional property ${JSON.stringify(params.additionalProperty)}`;
    case 'enum':
      return `must be one of ${show(params.allowedValues, 120)}`;
    case 'const':
      return `must be ${show(params.allowedValue)}`;
    case 'type':
      return `must be ${String(params.type).split(',').join(' or ')}`;
    default:
      return message;
  }
}

/** The reply's path in the notation jsonPath uses, and the value there. */
function locate(root: unknown, segments: readonly string[]): { path: string; value: unknown } {
  let path = '$';
  let value = root;
  for (const seg of segments) {
    if (Array.isArray(value)) {
      path += `[${seg}]`;
      value = value[Number(seg)];
    } else {
      path += /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[seg] : undefined;
    }
  }
  return { path, value };
}

/** `/a/0/b~1c` → `['a', '0', 'b/c']`. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
