import type { ModelCapabilities } from '../../providers/capabilities.js';
import { displayURL } from '../../core/display-url.js';
import { apiKeyEnvOf, apiKeyRequired, defaultEndpoint, formatModelSpec, resolveBaseURL, type ModelSpec } from '../../providers/model-spec.js';
import { sentEffort, specCapabilities, specFamilyRow, specRefusal, specWire } from '../../providers/wires.js';
import type { SpecUse } from '../../providers/wire-descriptor.js';
import { hasShutDown, retirementOf } from '../../providers/model-retirement.js';
import { resolvePrice, type Price, type PriceOverrides } from '../../providers/pricing.js';
import { providerDescriptor } from '../../providers/registry.js';

/** What a run would use to call one model, known without a request. Never holds a secret value. */
export interface ModelFacts {
  /** `provider:model`. */
  model: string;
  provider: string;
  /** The endpoint, without any credentials or query a URL may carry. */
  baseURL: string;
  /** Where the endpoint came from: the model spec, the provider's base-URL variable, or the provider's default. */
  baseURLFrom: 'config' | 'environment' | 'default';
  keyEnv: string;
  /** Whether the key variable is set (its value is never read out). */
  keyPresent: boolean;
  /** Whether calls need the key (a local server takes none). */
  keyRequired: boolean;
  /** What signs the calls when the provider takes credentials from a chain rather than one key (Bedrock, Vertex AI). */
  credentials?: string;
  /** The API its calls go to (`OpenAI Responses` for some OpenAI models); absent for an embeddings model. */
  api?: string;
  /** The request's output-token field on that API; absent for an embeddings model. */
  tokenField?: string;
  /** What requests to the model will carry (the table's row for its family, under the spec's overrides). */
  capabilities: ModelCapabilities;
  /** The reasoning effort its requests go out with (tool requests, when a caller offers tools), as the request builder sends it; absent: none is sent. */
  reasoningEffort?: string;
  /** What the run refuses before its first call, as the capability table says the API refuses it (model, wire, setting). */
  refused?: string;
  /** USD per 1M tokens, from the config's `pricing` or the bundled table; undefined: unknown. */
  price?: Price;
  /** Things to know: a model the capability table does not know, an announced shutdown. */
  notes: string[];
}

/**
 * The facts of `spec` under `env` and the config's price overrides on `today` (YYYY-MM-DD): pure, no
 * request; `use` says how the run's requests use it (tools, a structured answer). An `embeddings` model is not a chat model: the chat rows say nothing about it (its own row
 * was checked when the file loaded) but for its shutdown date.
 */
export function modelFacts(spec: ModelSpec, env: NodeJS.ProcessEnv, pricing: PriceOverrides, today: string, embeddings = false, use: SpecUse = { tools: false, structuredOutput: false }): ModelFacts {
  const keyEnv = apiKeyEnvOf(spec);
  const resolved = resolveBaseURL(spec, env);
  const price = resolvePrice(formatModelSpec(spec), pricing);
  const row = embeddings ? undefined : specFamilyRow(spec);
  const descriptor = providerDescriptor(spec.provider);
  const endpoint = resolved ?? defaultEndpoint(spec.provider, env);
  const notes: string[] = [];
  if (!row && !spec.capabilities && !embeddings)
    notes.push(`not in the capability table: called as the newest ${spec.provider} models are (set \`capabilities\` on its model spec if it accepts otherwise)`);
  const effort = embeddings ? undefined : sentEffort(spec, use);
  const capabilities = specCapabilities(spec);
  // The API is chosen per spec (the Responses API for some OpenAI models), with its own token field.
  const wire = embeddings ? undefined : specWire(spec);
  const refused = embeddings ? undefined : specRefusal(spec, use);
  const retired = retirementOf(spec);
  // The same rule and day as the run's warning (runner/loop/retired-models.ts).
  if (retired && hasShutDown(retired, today)) notes.push(`shut down on ${retired.shutdown} (${retired.source}, read ${retired.asOf}): a run warns about it before its first call`);
  else if (row?.shutdown) notes.push(`${row.family} is announced to shut down on ${row.shutdown} (${row.source}, read ${row.asOf})`);
  else if (row?.deprecated) notes.push(`${row.family} is deprecated since ${row.deprecated} (${row.source}, read ${row.asOf})`);
  return {
    model: formatModelSpec(spec),
    provider: spec.provider,
    // A provider without a default (Azure) and no variable set: say what to set rather than fail the listing.
    baseURL: endpoint !== undefined ? displayURL(endpoint) : `(none: set ${descriptor.baseURLEnv})`,
    baseURLFrom: spec.baseURL ? 'config' : resolved ? 'environment' : 'default',
    keyEnv,
    keyPresent: Boolean(env[keyEnv]?.trim()),
    keyRequired: apiKeyRequired(spec),
    ...(descriptor.credentials !== undefined ? { credentials: descriptor.credentials } : {}),
    ...(wire ? { api: wire.label, tokenField: wire.tokenField ?? capabilities.tokenParam } : {}),
    capabilities,
    ...(effort !== undefined ? { reasoningEffort: effort } : {}),
    ...(refused !== undefined ? { refused } : {}),
    ...(price ? { price } : {}),
    notes,
  };
}
