/**
 * What the fake Anthropic server knows about models, written down from Anthropic's docs (read
 * 2026-12-01) and kept apart from the project's own capability table on purpose: a fake that asked
 * our table what to refuse would prove nothing about the table.
 */

/**
 * Forced tool use (`tool_choice` `tool` or `any`) is a 400. Anthropic docs: What's new in Claude
 * Sonnet 5.5 ("Forced tool use returns an error"); What's new in Claude Opus 5.5 (same, and "the
 * first three also apply on Claude Fable 5.1"); What's new in Claude Fable 5.2 (Fable 5.2 and Mythos
 * 5.2 change none of that from Fable 5.1 / Mythos 5.1).
 */
export const REFUSES_FORCED_TOOL: readonly string[] = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-fable-5-1', 'claude-mythos-5-1', 'claude-fable-5-2', 'claude-mythos-5-2'];

/**
 * Models that think without being asked, so a tool loop must send back each assistant turn's
 * thinking blocks. Anthropic docs: What's new in Claude Sonnet 5.5 (adaptive thinking on by
 * default), Opus 5.5 (always on; also Fable 5.1), Haiku 5.5 (adaptive thinking; select blocks by
 * type); What's new in Claude Fable 5.2 (always on, Fable and Mythos 5.2); the Sonnet 5 / Opus 5
 * pages (on by default from those models on).
 */
export const THINKS_BY_DEFAULT: readonly string[] = [
  'claude-sonnet-5',
  'claude-opus-5',
  'claude-sonnet-5-5',
  'claude-opus-5-5',
  'claude-haiku-5-5',
  'claude-fable-5',
  'claude-fable-5-1',
  'claude-fable-5-2',
  'claude-mythos-5',
  'claude-mythos-5-1',
  'claude-mythos-5-2',
];

/**
 * Models without structured outputs (`output_config.format`). Anthropic docs: Structured outputs
 * (generally available on Claude Haiku 4.5, Sonnet 4.5, Opus 4.5 and every model after them): the
 * earlier Claude 4 and Claude 3 families do not take it.
 */
const NO_STRUCTURED_OUTPUT: readonly string[] = ['claude-opus-4', 'claude-opus-4-1', 'claude-sonnet-4'];

/**
 * The Messages API's top-level body fields under API version 2026-10-21 (Anthropic API reference,
 * Create a Message): anything else is "Extra inputs are not permitted". That version removed
 * temperature, top_p and top_k (Anthropic docs: API versioning / migrating to 2026-10-21: a 400
 * "even at the default values"); clients still on 2023-06-01 (the AI SDK's provider) may send them.
 */
export const MESSAGE_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
  'stop_sequences',
  'stream',
  'service_tier',
  'speed',
  'container',
  'cache_control',
  'diagnostics',
  'inference_geo',
]);

/** The API version that removed the sampling parameters. */
export const SAMPLING_REMOVED_IN = '2026-10-21';
const SAMPLING = ['temperature', 'top_p', 'top_k'];

/** Whether a top-level field is defined under the request's `anthropic-version` (dates compare as strings). */
export function knownField(field: string, apiVersion: string): boolean {
  return MESSAGE_FIELDS.has(field) || (SAMPLING.includes(field) && apiVersion < SAMPLING_REMOVED_IN);
}

export const refusesForcedTool = (model: string) => REFUSES_FORCED_TOOL.includes(modelFamily(model));
export const thinksByDefault = (model: string) => THINKS_BY_DEFAULT.includes(modelFamily(model));
export const takesOutputFormat = (model: string) => {
  const family = modelFamily(model);
  return !family.startsWith('claude-3') && !NO_STRUCTURED_OUTPUT.includes(family);
};

/** The family of a dated or `-latest` id, done here rather than with the project's own helper. */
function modelFamily(model: string): string {
  return model.replace(/-latest$/, '').replace(/-\d{8}$/, '');
}

const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const STRING = ['minLength', 'maxLength'];

/**
 * The JSON Schema subset `output_config.format` takes (Anthropic docs: Structured outputs, "JSON
 * Schema limitations"; the 400s users report quote these messages): objects must set
 * `additionalProperties: false`; no numeric or string-length constraints; `minItems` only 0 or 1,
 * no `maxItems`.
 */
export function outputSchemaProblem(node: unknown, at = 'output_config.format.schema'): string | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const p = outputSchemaProblem(n, at);
      if (p) return p;
    }
    return undefined;
  }
  if (typeof node !== 'object' || node === null) return undefined;
  const s = node as Record<string, any>;
  const type = Array.isArray(s.type) ? s.type.find((t: unknown) => t !== 'null') : s.type;
  for (const key of [...NUMERIC, ...STRING]) if (key in s) return `${at}: For '${String(type ?? 'any')}' type, property '${key}' is not supported`;
  if ('maxItems' in s || ('minItems' in s && s.minItems !== 0 && s.minItems !== 1)) return `${at}: For 'array' type, 'minItems' values other than 0 or 1 are not supported`;
  if ((type === 'object' || s.properties !== undefined) && s.additionalProperties !== false) return `${at}: For 'object' type, 'additionalProperties' must be explicitly set to false`;
  for (const key of ['properties', '$defs', 'definitions']) {
    for (const child of Object.values((s[key] ?? {}) as Record<string, unknown>)) {
      const p = outputSchemaProblem(child, at);
      if (p) return p;
    }
  }
  for (const key of ['items', 'anyOf', 'allOf', 'oneOf', 'prefixItems']) {
    const p = outputSchemaProblem(s[key], at);
    if (p) return p;
  }
  return undefined;
}
