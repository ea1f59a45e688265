/**
 * What the fake OpenAI server refuses, as the real API documents it. The fake keeps its own list,
 * read from OpenAI's pages (never from src/providers' capability table: a fake that shared the
 * code's table would agree with the code's mistakes). Read on 2026-12-01 from:
 * - OpenAI docs: Reasoning models guide (limitations: no temperature / top_p, `max_completion_tokens`);
 * - OpenAI docs: "Using GPT-6" latest-model guide and the deployment checklist ("when reasoning effort
 *   is not none, remove temperature, top_p and top_logprobs"; no GPT-6 model defaults to `none`);
 * - OpenAI docs: the GPT-5, GPT-5.5, GPT-5.6 Luna, GPT-6 Luna, GPT-6.1 Terra model pages (reasoning.effort
 *   values; every GPT-5.6 and GPT-6 Sol / Luna / Terra model takes none..max); GPT-6 Astra and GPT-6.1 Sol take
 *   low..max (no none; `minimal` is refused by every GPT-6 model), GPT-6.2 low..xhigh;
 * - OpenAI docs: deployment checklist and the GPT-6 Luna / GPT-6.1 Terra model pages (function tools on
 *   Chat Completions: none on GPT-6 Astra, 6.1 Sol, 6.1 Terra; only at reasoning_effort none on GPT-6
 *   Sol and Luna), and the API's own error for gpt-5.6-luna (the same rule);
 * - OpenAI docs: Structured Outputs guide, "Supported schemas" (strict mode subset);
 * - the API's own error texts as quoted in public issue threads (unsupported_parameter / unsupported_value).
 */

export interface OpenAIRefusal {
  message: string;
  param: string | null;
  code: string | null;
}

/** One model family as the fake knows it. */
interface FakeModelRule {
  /** Takes `reasoning_effort` (and so refuses `max_tokens`). */
  reasoning: boolean;
  /** The `reasoning_effort` values the model takes. */
  efforts?: readonly string[];
  /** `never`: temperature/top_p other than 1 refused; `effort-none`: only with reasoning_effort "none". */
  sampling?: 'never' | 'effort-none';
  /** Function tools on Chat Completions: `never` (Responses only), `effort-none` (only at reasoning_effort none). */
  chatTools?: 'never' | 'effort-none';
}

const NON_REASONING: FakeModelRule = { reasoning: false };
const O_SERIES: FakeModelRule = { reasoning: true, efforts: ['low', 'medium', 'high'], sampling: 'never' };
const GPT5: FakeModelRule = { reasoning: true, efforts: ['minimal', 'low', 'medium', 'high'], sampling: 'never' };
const GPT51: FakeModelRule = { reasoning: true, efforts: ['none', 'low', 'medium', 'high'], sampling: 'effort-none' };
const GPT5X: FakeModelRule = { reasoning: true, efforts: ['none', 'low', 'medium', 'high', 'xhigh'], sampling: 'effort-none' };
const GPT5X_MAX: FakeModelRule = { reasoning: true, efforts: ['none', 'low', 'medium', 'high', 'xhigh', 'max'], sampling: 'effort-none' };
const CODEX: FakeModelRule = { reasoning: true, efforts: ['low', 'medium', 'high', 'xhigh'], sampling: 'never' };
// GPT-6 Astra, GPT-6.1 Sol and the GPT-6.2 models have no `none`: sampling parameters are always refused.
const GPT6_NO_NONE: FakeModelRule = { reasoning: true, efforts: ['low', 'medium', 'high', 'xhigh', 'max'], sampling: 'effort-none', chatTools: 'never' };
const GPT62: FakeModelRule = { reasoning: true, efforts: ['low', 'medium', 'high', 'xhigh'], sampling: 'effort-none', chatTools: 'never' };
const TERRA61: FakeModelRule = { ...GPT5X_MAX, chatTools: 'never' };
const TOOLS_AT_NONE: FakeModelRule = { ...GPT5X_MAX, chatTools: 'effort-none' };

/** By model id: exact (date suffix removed) first, then the longest prefix ending at `-` or `.`. */
const RULES: Record<string, FakeModelRule> = {
  'gpt-4.1': NON_REASONING,
  'gpt-4o': NON_REASONING,
  o1: O_SERIES,
  o3: O_SERIES,
  'o4-mini': O_SERIES,
  'gpt-5': GPT5,
  'gpt-5-chat': NON_REASONING,
  'gpt-5.1': GPT51,
  'gpt-5.1-chat': NON_REASONING,
  'gpt-5.2': GPT5X,
  'gpt-5.4': GPT5X,
  'gpt-5.5': GPT5X,
  'gpt-5.3-codex': CODEX,
  'gpt-5.6': GPT5X_MAX,
  'gpt-5.6-luna': TOOLS_AT_NONE,
  // Unknown GPT-6 ids get the strictest GPT-6 rule.
  'gpt-6': GPT62,
  'gpt-6-astra': GPT6_NO_NONE,
  'gpt-6-sol': TOOLS_AT_NONE,
  'gpt-6-luna': TOOLS_AT_NONE,
  'gpt-6.1-sol': GPT6_NO_NONE,
  'gpt-6.1-terra': TERRA61,
  'gpt-6.2': GPT62,
};

export function fakeModelRule(model: string): FakeModelRule {
  const id = model.replace(/-\d{4}-\d{2}-\d{2}$/, '').replace(/-latest$/, '');
  if (RULES[id]) return RULES[id];
  let best: string | undefined;
  for (const key of Object.keys(RULES)) {
    if (id.startsWith(key) && /^[-.]/.test(id.slice(key.length)) && (!best || key.length > best.length)) best = key;
  }
  // A model the fake does not know is treated as a plain chat model, as the fake always did.
  return best ? RULES[best]! : NON_REASONING;
}

/**
 * What the real endpoint answers with a 400 for the request's parameters, if anything. `effort` is
 * where the request names its reasoning effort (Chat Completions `reasoning_effort`, Responses `reasoning.effort`).
 */
export function refuseParameters(body: any, effort: unknown, api: 'chat' | 'responses'): OpenAIRefusal | undefined {
  const rule = fakeModelRule(String(body.model));
  const effortParam = api === 'chat' ? 'reasoning_effort' : 'reasoning.effort';
  if (effort !== undefined && effort !== null) {
    if (!rule.reasoning) return unsupportedParameter(effortParam);
    if (!rule.efforts?.includes(String(effort))) {
      return {
        message: `Unsupported value: '${effortParam}' does not support '${String(effort)}' with this model. Supported values are: ${rule.efforts!.map((e) => `'${e}'`).join(', ')}.`,
        param: effortParam,
        code: 'unsupported_value',
      };
    }
  }
  const tools = api === 'chat' && Array.isArray(body.tools) && body.tools.some((t: any) => t?.type === 'function');
  if (tools && rule.chatTools === 'never') {
    return { message: `Function tools are not supported for ${String(body.model)} in /v1/chat/completions. To use function tools, use /v1/responses.`, param: 'tools', code: null };
  }
  if (tools && rule.chatTools === 'effort-none' && effort !== 'none') {
    return {
      message: `Function tools with reasoning_effort are not supported for ${String(body.model)} in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.`,
      param: 'reasoning_effort',
      code: null,
    };
  }
  if (rule.reasoning && api === 'chat' && body.max_tokens !== undefined && body.max_tokens !== null) {
    return { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", param: 'max_tokens', code: 'unsupported_parameter' };
  }
  const samplingAllowed = rule.sampling === undefined || (rule.sampling === 'effort-none' && effort === 'none');
  if (!samplingAllowed) {
    for (const p of ['temperature', 'top_p'] as const) {
      const v = body[p];
      if (v !== undefined && v !== null && v !== 1) {
        return { message: `Unsupported value: '${p}' does not support ${String(v)} with this model. Only the default (1) value is supported.`, param: p, code: 'unsupported_value' };
      }
    }
  }
  return undefined;
}

function unsupportedParameter(param: string): OpenAIRefusal {
  return { message: `Unsupported parameter: '${param}' is not supported with this model.`, param, code: 'unsupported_parameter' };
}

/** Keywords strict mode takes (Structured Outputs, "Supported schemas"); any other is refused. */
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
  // The JSON Schema dialect tag the Agents SDK's zod schemas carry: an annotation the API takes.
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

/**
 * A strict `json_schema` outside the supported subset, as the real endpoint words it: the root is an
 * object (not anyOf), every object lists all its properties in `required` and sets
 * `additionalProperties: false`, and only supported keywords appear.
 */
export function refuseStrictSchema(name: string, schema: unknown, param = 'response_format'): OpenAIRefusal | undefined {
  const fail = (context: string[], what: string): OpenAIRefusal => ({
    message: `Invalid schema for ${param} '${name}': In context=(${context.map((c) => `'${c}'`).join(', ')}), ${what}`,
    param,
    code: null,
  });
  if (!isObject(schema)) return fail([], 'schema must be a JSON Schema of \'type: "object"\', got \'type: "None"\'.');
  if (schema.type !== 'object' || schema.anyOf !== undefined) return fail([], `schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type ?? 'None')}"'.`);
  return walk(schema, [], fail);
}

function walk(node: Record<string, unknown>, context: string[], fail: (context: string[], what: string) => OpenAIRefusal): OpenAIRefusal | undefined {
  for (const key of Object.keys(node)) {
    if (!STRICT_KEYWORDS.has(key)) return fail(context, `'${key}' is not permitted.`);
  }
  const isObjectSchema = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || node.properties !== undefined;
  if (isObjectSchema) {
    if (node.additionalProperties !== false) return fail(context, "'additionalProperties' is required to be supplied and to be false.");
    const keys = Object.keys(isObject(node.properties) ? node.properties : {});
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = keys.filter((k) => !required.includes(k));
    if (!Array.isArray(node.required) || missing.length > 0) {
      return fail(context, `'required' is required to be supplied and to be an array including every key in properties.${missing.length ? ` Missing '${missing[0]}'.` : ''}`);
    }
  }
  const children: Array<[string[], unknown]> = [];
  if (isObject(node.properties)) for (const [k, v] of Object.entries(node.properties)) children.push([[...context, 'properties', k], v]);
  for (const defs of ['$defs', 'definitions'] as const) {
    if (isObject(node[defs])) for (const [k, v] of Object.entries(node[defs])) children.push([[...context, defs, k], v]);
  }
  if (isObject(node.items)) children.push([[...context, 'items'], node.items]);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach((v, i) => children.push([[...context, 'anyOf', String(i)], v]));
  for (const [ctx, child] of children) {
    if (!isObject(child)) continue;
    const refused = walk(child, ctx, fail);
    if (refused) return refused;
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
