import { z } from 'zod';
import { BOUNDS, boundedNumber } from '../core/bounds.js';
import { ProviderConfigError } from '../core/errors.js';
import { closestName, unknownFieldsMessage } from '../core/closest-name.js';
import { CapabilityOverridesSchema, type ModelCapabilities, type WireTable } from './capabilities.js';
import { capabilitiesOf } from './capability-lookup.js';
import { ProxySettingSchema } from './proxy.js';
import { isProviderId, PROVIDER_IDS, providerDescriptor, providerIds, providerList, type ProviderId } from './registry.js';

/**
 * The registry's ids, checked against the registry when parsed (a provider registered after this
 * module loaded is taken too); its JSON Schema lists the built-in ids.
 */
export const ProviderIdSchema = z
  .string()
  .refine(isProviderId, {
    error: () =>
      `Invalid option: expected one of ${providerIds()
        .map((id) => JSON.stringify(id))
        .join('|')}`,
  })
  .meta({ enum: PROVIDER_IDS });

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The object form of a model spec, as written in evals.config.ts. */
export const ModelSpecObjectSchema = z
  .object({
    provider: ProviderIdSchema,
    model: z.string().min(1),
    baseURL: z.url().optional(),
    apiKeyEnv: z.string().regex(ENV_NAME, 'must be an environment variable name').optional(),
    headers: z.record(z.string(), z.string()).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: boundedNumber(BOUNDS.count).optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    maxConcurrency: boundedNumber(BOUNDS.concurrency).optional(),
    /** How long one call may be held back by 429s in all before it fails (ms). */
    rateLimitWaitMs: boundedNumber(BOUNDS.waitMs).optional(),
    /** First backoff after a 429 without retry-after (ms); doubles per retry up to a few seconds. */
    rateLimitBackoffMs: boundedNumber(BOUNDS.waitMs).optional(),
    /** Largest response body accepted (bytes); a bigger one fails the call. */
    maxResponseBytes: boundedNumber(BOUNDS.count).optional(),
    /** What the model accepts, over the bundled table's row for its family (a model the table does not know). */
    capabilities: CapabilityOverridesSchema.optional(),
    /** Reasoning effort for models that take one (OpenAI `reasoning_effort`, Anthropic `output_config.effort`). */
    reasoningEffort: z.string().min(1).optional(),
    /**
     * Which OpenAI API the calls go to: `chat` (Chat Completions) or `responses` (the Responses API).
     * Unset: chosen per model from the capability table (wires/openai/api-choice.ts).
     */
    api: z.enum(['chat', 'responses']).optional(),
    /** This model's HTTP proxy (a URL), or false to call it directly; over the config's `proxy` and the environment's. */
    proxy: ProxySettingSchema.optional(),
  })
  .strict();

const escape = (id: string) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `provider:model` for every provider of the registry (the model part may itself contain colons). */
export const MODEL_SPEC_PATTERN = new RegExp(`^(${PROVIDER_IDS.map(escape).join('|')}):.+$`);

/**
 * `provider:model`; the model part may itself contain colons (fine-tuned ids such as
 * `ft:gpt-4o-mini:org::id`). Checked against the registry when parsed; its JSON Schema holds the
 * built-in ids' pattern.
 */
export const ModelSpecStringSchema = z
  .string()
  .refine(isModelSpecString, { error: (issue) => `expected "<provider>:<model>" with provider one of: ${providerList()}${providerGuess(issue.input)}` })
  .meta({ pattern: MODEL_SPEC_PATTERN.source });

/** `; did you mean "openai"?` for `openia:gpt-5.4-mini`; else ''. */
function providerGuess(input: unknown): string {
  const colon = typeof input === 'string' ? input.indexOf(':') : -1;
  const near = colon > 0 ? closestName((input as string).slice(0, colon), providerIds()) : undefined;
  return near ? `; did you mean "${near}"?` : '';
}

function isModelSpecString(v: string): boolean {
  const colon = v.indexOf(':');
  return colon > 0 && colon < v.length - 1 && isProviderId(v.slice(0, colon));
}

/** What a user may write: `'openai:gpt-4.1-mini'` or the object form. */
export const ModelSpecInputSchema = z.union([ModelSpecStringSchema, ModelSpecObjectSchema]);

export type ModelSpec = z.infer<typeof ModelSpecObjectSchema>;
export type ModelSpecInput = z.input<typeof ModelSpecInputSchema>;

/** Validate and normalize a spec to its object form; throws ProviderConfigError naming the problem. */
export function parseModelSpec(input: unknown): ModelSpec {
  const parsed = ModelSpecInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    const message = issue?.code === 'unrecognized_keys' && issue.path.length === 0 ? unknownFieldsMessage(issue.keys, Object.keys(ModelSpecObjectSchema.shape)) : issue?.message;
    throw new ProviderConfigError(`invalid model spec ${JSON.stringify(input)}${where}: ${message ?? 'invalid'}`);
  }
  const value = parsed.data;
  if (typeof value !== 'string') return value;
  const colon = value.indexOf(':');
  return { provider: value.slice(0, colon) as ProviderId, model: value.slice(colon + 1) };
}

/** `provider:model`, the key used by pricing, reports and the pricing override table. */
export function formatModelSpec(spec: Pick<ModelSpec, 'provider' | 'model'>): string {
  return `${spec.provider}:${spec.model}`;
}

export function apiKeyEnvOf(spec: Pick<ModelSpec, 'provider' | 'apiKeyEnv'>): string {
  return spec.apiKeyEnv ?? providerDescriptor(spec.provider).keyEnv;
}

/** Whether a call needs a key: local servers do not, unless the spec names a variable of its own. */
export function apiKeyRequired(spec: Pick<ModelSpec, 'provider' | 'apiKeyEnv'>): boolean {
  return spec.apiKeyEnv !== undefined || providerDescriptor(spec.provider).keyRequired;
}

/**
 * The variable a call of this spec needs and `env` lacks, if any: its key (a local server needs none
 * unless the spec names one), else the region of a cloud that has no default one.
 */
export function missingApiKey(spec: Pick<ModelSpec, 'provider' | 'apiKeyEnv'>, env: NodeJS.ProcessEnv): string | undefined {
  const name = apiKeyEnvOf(spec);
  if (apiKeyRequired(spec) && !env[name]?.trim()) return name;
  const { region } = providerDescriptor(spec.provider);
  return region && region.default === undefined && !env[region.env]?.trim() ? region.env : undefined;
}

/** The region a cloud provider's calls go to (its variable, else its default); undefined for a provider without regions or when none is set. */
export function regionOf(provider: ProviderId, env: NodeJS.ProcessEnv): string | undefined {
  const { region } = providerDescriptor(provider);
  return region ? env[region.env]?.trim() || region.default : undefined;
}

/** The provider's own endpoint under `env`: its region's, else its default (undefined: one must be given). */
export function defaultEndpoint(provider: ProviderId, env: NodeJS.ProcessEnv): string | undefined {
  const { region } = providerDescriptor(provider);
  const name = regionOf(provider, env);
  return region && name ? region.baseURL(name) : providerDescriptor(provider).defaultBaseURL;
}

/**
 * What a keyless server is sent when its variable is unset: the SDK refuses an empty key, and these
 * servers ignore it.
 */
export const NO_KEY = 'no-key';

/** The API key from the environment; a missing or blank key is a configuration error naming the variable. */
export function resolveApiKey(spec: Pick<ModelSpec, 'provider' | 'apiKeyEnv'>, env: NodeJS.ProcessEnv = process.env): string {
  const name = apiKeyEnvOf(spec);
  const key = env[name]?.trim();
  if (key) return key;
  if (!apiKeyRequired(spec)) return NO_KEY;
  throw new ProviderConfigError(`missing API key for ${spec.provider}: set ${name}`);
}

/** The spec's baseURL, else the provider's base-URL variable (OPENAI_BASE_URL, OLLAMA_BASE_URL, ...), else undefined. */
export function resolveBaseURL(spec: Pick<ModelSpec, 'provider' | 'baseURL'>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env[providerDescriptor(spec.provider).baseURLEnv]?.trim();
  return spec.baseURL ?? (fromEnv ? fromEnv : undefined);
}

/**
 * The endpoint a spec calls: resolveBaseURL, else the provider's own (its region's, or its default).
 * A provider without one (Azure: the URL names the resource; Vertex AI without a region) is a
 * configuration error naming the variable.
 */
export function resolveEndpoint(spec: Pick<ModelSpec, 'provider' | 'baseURL'>, env: NodeJS.ProcessEnv = process.env): string {
  const d = providerDescriptor(spec.provider);
  // A cloud's region is in its request paths and signatures, so it is needed whatever the endpoint.
  if (d.region && regionOf(spec.provider, env) === undefined) throw new ProviderConfigError(`no region for ${spec.provider}: set ${d.region.env}`);
  const url = resolveBaseURL(spec, env) ?? defaultEndpoint(spec.provider, env);
  if (url === undefined) {
    throw new ProviderConfigError(`no endpoint for ${spec.provider}: set ${d.baseURLEnv}${d.baseURLHint ? ` (${d.baseURLHint})` : ''} or \`baseURL\` in the model spec`);
  }
  return url;
}

/**
 * What the spec's model accepts on `wire` (its provider's; wires.ts `specCapabilities` looks it up):
 * its family's row in the table, else the wire's default, under the provider's quirks, under the
 * spec's own overrides.
 */
export function specCapabilitiesOn(wire: WireTable, spec: Pick<ModelSpec, 'provider' | 'model' | 'capabilities'>): ModelCapabilities {
  return capabilitiesOf(wire, spec.model, providerDescriptor(spec.provider).quirks, spec.capabilities);
}

/**
 * The spec's reasoning effort, when it sets one the model takes (its capabilities' `reasoningEfforts`);
 * another value is a configuration error naming the model and the values it takes. Checked when the
 * provider is built, so a typo stops the run before any call.
 */
export function checkedReasoningEffort(spec: Pick<ModelSpec, 'provider' | 'model' | 'capabilities' | 'reasoningEffort'>, caps: ModelCapabilities): string | undefined {
  const effort = spec.reasoningEffort;
  if (effort === undefined) return undefined;
  const allowed = caps.reasoningEfforts ?? [];
  const where = `${formatModelSpec(spec)}: reasoningEffort "${effort}"`;
  const fix = 'set capabilities.reasoningEfforts in the model spec if the model takes it';
  if (allowed.length === 0) throw new ProviderConfigError(`${where}: the model takes no reasoning effort (${fix})`);
  if (!allowed.includes(effort)) throw new ProviderConfigError(`${where} is not one the model takes: ${allowed.join(', ')} (${fix})`);
  return effort;
}
