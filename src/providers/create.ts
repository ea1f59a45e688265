import { ProviderConfigError } from '../core/errors.js';
import type { ProviderLimiters } from './adaptive-limit.js';
import { apiKeyEnvOf, checkedReasoningEffort, formatModelSpec, parseModelSpec, resolveApiKey, resolveEndpoint, type ModelSpecInput } from './model-spec.js';
import type { FetchLike } from './fetch-like.js';
import { checkSdkPackage } from './sdk-package.js';
import type { ProviderSettings } from './settings.js';
import type { CompletionRequest, CompletionResponse, Provider, ProviderId } from './types.js';
import type { Embedder } from './embeddings.js';
import { providerWire, specCapabilities } from './wires.js';

export interface CreateProviderOptions {
  /** The run's limiters: the provider takes its endpoint's, shared with the run's other providers there. */
  limiters: ProviderLimiters;
  /** Underlying fetch for the SDK (tests); 429s are still reported to the shared limiter. */
  fetch?: FetchLike;
}

/** The key that groups a run's calls under one shared limiter: provider plus endpoint. */
export function limiterKey(provider: ProviderId, baseURL: string): string {
  return `${provider} ${baseURL.replace(/\/+$/, '')}`;
}

/** The limiter key a spec resolves to under `env` (what tests and reports use to find its limiter). */
export function limiterKeyFor(input: ModelSpecInput, env: NodeJS.ProcessEnv = process.env): string {
  const spec = parseModelSpec(input);
  return limiterKey(spec.provider, resolveEndpoint(spec, env));
}

/** A model spec resolved against `env`: endpoint, key (checked now) and the endpoint's shared limiter. */
export function providerSettings(input: ModelSpecInput, env: NodeJS.ProcessEnv, options: CreateProviderOptions): ProviderSettings {
  const spec = parseModelSpec(input);
  const baseURL = resolveEndpoint(spec, env);
  checkedReasoningEffort(spec, specCapabilities(spec));
  checkSdkPackage(spec.provider);
  return {
    spec,
    apiKey: resolveApiKey(spec, env),
    apiKeyEnv: apiKeyEnvOf(spec),
    baseURL,
    limiter: options.limiters.for(limiterKey(spec.provider, baseURL), spec.maxConcurrency),
    network: { ...(spec.proxy !== undefined ? { proxy: spec.proxy } : options.limiters.proxy !== undefined ? { proxy: options.limiters.proxy } : {}), env },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
}

/**
 * Build a provider from a model spec. Validation and the API key check happen now (a bad spec or a
 * missing key stops the run before any call); the SDK of the provider's wire format is imported on
 * the first call, so starting the CLI never loads it.
 */
export function createProvider(input: ModelSpecInput, env: NodeJS.ProcessEnv = process.env, options: CreateProviderOptions): Provider {
  const settings = providerSettings(input, env, options);
  const { spec } = settings;

  let loading: Promise<Provider> | undefined;
  // Once loaded, each call goes straight to it (no extra async step per request).
  let loaded: Provider | undefined;
  const load = (): Promise<Provider> => {
    loading ??= providerWire(spec.provider)
      .provider(settings)
      .then(
        (provider) => (loaded = provider),
        (err: unknown) => {
          loading = undefined; // let a later call try again
          throw err;
        },
      );
    return loading;
  };

  return {
    id: spec.provider,
    model: spec.model,
    spec: formatModelSpec(spec),
    complete: (req: CompletionRequest): Promise<CompletionResponse> => (loaded ? loaded.complete(req) : load().then((provider) => provider.complete(req))),
  };
}

/**
 * The embedder of a resolved model spec, over its wire's embeddings endpoint (its SDK loaded on the
 * first call). A wire without one is refused before (embedding-models.ts), so this throws only when
 * that check was skipped.
 */
export function createEmbedder(settings: ProviderSettings): Embedder {
  const wire = providerWire(settings.spec.provider);
  if (!wire.embedder) throw new ProviderConfigError(`${formatModelSpec(settings.spec)} cannot make embeddings: the ${wire.label} wire has no embeddings endpoint`);
  return wire.embedder(settings);
}

/** What every model answers in a dry run (model targets and the SDK clients of function targets). */
export const DRY_RUN_REPLY = '[dry run: the model was not called]';

/**
 * `--dry-run`: a provider that answers at once without a call, so a dry run spends no token and
 * needs no key. The model spec is still validated.
 */
export function dryRunProvider(input: ModelSpecInput): Provider {
  const spec = parseModelSpec(input);
  return {
    id: spec.provider,
    model: spec.model,
    spec: formatModelSpec(spec),
    complete: async () => ({
      text: DRY_RUN_REPLY,
      toolCalls: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      finishReason: 'stop',
      model: spec.model,
    }),
  };
}
