/**
 * The providers the project speaks to, one descriptor each. Everything that names providers derives
 * from this list: the `ProviderId` type, the schema enum, the `provider:model` grammar, the key and
 * base-URL variables, which SDK is loaded, batch support, the help text and the README's list.
 * Adding an OpenAI-compatible server is one more entry here.
 *
 * Imports types only: the CLI's help and the config schema read this list without loading a model
 * table or an SDK.
 */
import type { CapabilityOverrides, Wire } from './capabilities.js';

export interface ProviderDescriptor {
  /** The `provider` of a model spec, the prefix of `provider:model`. */
  id: string;
  /** How people name it. */
  label: string;
  /** The wire format it speaks, hence the SDK, request builder and usage parser used for it. */
  wire: Wire;
  /** The environment variable holding its API key. */
  keyEnv: string;
  /** False for local servers that need no key: the variable is sent when set, else a placeholder. */
  keyRequired: boolean;
  /** The environment variable that points it at another endpoint. */
  baseURLEnv: string;
  /** Its endpoint when neither the spec nor `baseURLEnv` gives one; absent: one must be given. */
  defaultBaseURL?: string;
  /** What the endpoint looks like, for the error when it must be given and is not. */
  baseURLHint?: string;
  /** Whether `--judge-batch` can send its calls through a batch API (else they are made live). */
  batch: boolean;
  /** What every model served there accepts, over the capability table's row (the spec's own `capabilities` win). */
  quirks?: CapabilityOverrides;
  /** A server on the user's machine: its models cost nothing (a `pricing` entry still wins). */
  local?: boolean;
  /**
   * A cloud whose endpoint is per region: the variable naming the region, the region when it is unset
   * (absent: the variable must be set, checked before any call like a key) and the endpoint of a region.
   * `baseURLEnv` or the spec's `baseURL` still win over it.
   */
  region?: { env: string; default?: string; baseURL(region: string): string };
  /**
   * What a user sets when the calls are signed with credentials from a chain (environment, files,
   * roles, metadata servers) rather than one key: named in its errors and the docs. `keyEnv` is then
   * an optional key the SDK also takes.
   */
  credentials?: string;
  /** Where the facts were read, in words (never a link), and when. */
  source: string;
  asOf: string;
}

/** Keeps each entry's `id` as a literal, so `ProviderId` is the union of the ids below. */
function entry<const Id extends string>(d: ProviderDescriptor & { id: Id }): ProviderDescriptor & { id: Id } {
  return d;
}

const READ = '2026-12-01';

/**
 * Hosted servers that serve many models, where a strict `json_schema` answer depends on the model,
 * get `structuredOutput: 'text'` (the schema in the prompt): it works on every model, and a model
 * known to take `json_schema` can say so in its spec's `capabilities`.
 */
export const PROVIDERS = [
  entry({
    id: 'openai',
    label: 'OpenAI',
    wire: 'openai',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: true,
    baseURLEnv: 'OPENAI_BASE_URL',
    defaultBaseURL: 'https://api.openai.com/v1',
    batch: true,
    source: 'OpenAI API reference: authentication and Batch API',
    asOf: READ,
  }),
  entry({
    id: 'anthropic',
    label: 'Anthropic',
    wire: 'anthropic',
    keyEnv: 'ANTHROPIC_API_KEY',
    keyRequired: true,
    baseURLEnv: 'ANTHROPIC_BASE_URL',
    defaultBaseURL: 'https://api.anthropic.com',
    batch: true,
    source: 'Anthropic API reference: authentication and Message Batches',
    asOf: READ,
  }),
  entry({
    id: 'ollama',
    label: 'Ollama',
    wire: 'openai',
    // Used by ollama.com's cloud endpoint; the local server ignores any key.
    keyEnv: 'OLLAMA_API_KEY',
    keyRequired: false,
    baseURLEnv: 'OLLAMA_BASE_URL',
    defaultBaseURL: 'http://localhost:11434/v1',
    batch: false,
    // Its supported request fields list `max_tokens`, not `max_completion_tokens`.
    quirks: { tokenParam: 'max_tokens' },
    local: true,
    source: 'Ollama docs: OpenAI compatibility (local server usage, supported request fields)',
    asOf: READ,
  }),
  entry({
    id: 'vllm',
    label: 'vLLM',
    wire: 'openai',
    // The key the server was started with (`vllm serve --api-key`), if any.
    keyEnv: 'VLLM_API_KEY',
    keyRequired: false,
    baseURLEnv: 'VLLM_BASE_URL',
    defaultBaseURL: 'http://localhost:8000/v1',
    batch: false,
    quirks: { tokenParam: 'max_tokens' },
    local: true,
    source: 'vLLM docs: OpenAI-compatible server (vllm serve, structured outputs)',
    asOf: READ,
  }),
  entry({
    id: 'lmstudio',
    label: 'LM Studio',
    wire: 'openai',
    // Only when "Require Authentication" is on in LM Studio.
    keyEnv: 'LMSTUDIO_API_KEY',
    keyRequired: false,
    baseURLEnv: 'LMSTUDIO_BASE_URL',
    defaultBaseURL: 'http://localhost:1234/v1',
    batch: false,
    quirks: { tokenParam: 'max_tokens' },
    local: true,
    source: 'LM Studio docs: OpenAI compatible endpoints, structured output (JSON schema on /v1/chat/completions)',
    asOf: READ,
  }),
  entry({
    id: 'groq',
    label: 'Groq',
    wire: 'openai',
    keyEnv: 'GROQ_API_KEY',
    keyRequired: true,
    baseURLEnv: 'GROQ_BASE_URL',
    defaultBaseURL: 'https://api.groq.com/openai/v1',
    batch: false,
    // Strict json_schema only on select models (400 elsewhere).
    quirks: { structuredOutput: 'text' },
    source: 'Groq docs: OpenAI compatibility, structured outputs (strict mode on select models)',
    asOf: READ,
  }),
  entry({
    id: 'together',
    label: 'Together AI',
    wire: 'openai',
    keyEnv: 'TOGETHER_API_KEY',
    keyRequired: true,
    baseURLEnv: 'TOGETHER_BASE_URL',
    defaultBaseURL: 'https://api.together.ai/v1',
    batch: false,
    // response_format and tools only on some models; `max_tokens` is its token limit.
    quirks: { tokenParam: 'max_tokens', structuredOutput: 'text' },
    source: 'Together AI docs: OpenAI compatibility (drop-in client setup, endpoint compatibility matrix)',
    asOf: READ,
  }),
  entry({
    id: 'openrouter',
    label: 'OpenRouter',
    wire: 'openai',
    keyEnv: 'OPENROUTER_API_KEY',
    keyRequired: true,
    baseURLEnv: 'OPENROUTER_BASE_URL',
    defaultBaseURL: 'https://openrouter.ai/api/v1',
    batch: false,
    // Its request schema takes `max_tokens`; structured outputs only on the models that support them.
    quirks: { tokenParam: 'max_tokens', structuredOutput: 'text' },
    source: 'OpenRouter docs: API reference overview (request schema, structured outputs)',
    asOf: READ,
  }),
  entry({
    id: 'gemini',
    label: 'Gemini (OpenAI-compatible endpoint)',
    wire: 'openai',
    keyEnv: 'GEMINI_API_KEY',
    keyRequired: true,
    baseURLEnv: 'GEMINI_BASE_URL',
    defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    batch: false,
    quirks: { tokenParam: 'max_tokens' },
    source: 'Gemini API docs: OpenAI compatibility (base URL, Bearer key, structured output)',
    asOf: READ,
  }),
  entry({
    id: 'google',
    label: 'Google Gemini API',
    wire: 'google',
    // The variable the Gemini API docs and the SDK name (the SDK also reads GOOGLE_API_KEY, which
    // wins there when both are set; here the key comes from this one unless `apiKeyEnv` names another).
    keyEnv: 'GEMINI_API_KEY',
    keyRequired: true,
    // The SDK's own variable for another endpoint (a proxy, a test server).
    baseURLEnv: 'GOOGLE_GEMINI_BASE_URL',
    defaultBaseURL: 'https://generativelanguage.googleapis.com',
    batch: false,
    source: 'Gemini API docs: API keys (GEMINI_API_KEY, x-goog-api-key), generateContent reference; @google/genai 2.32 client options',
    asOf: '2026-12-04',
  }),
  entry({
    id: 'azure',
    label: 'Azure OpenAI (v1 API)',
    wire: 'openai',
    keyEnv: 'AZURE_OPENAI_API_KEY',
    keyRequired: true,
    // The endpoint names the resource, so there is no default: the model is the deployment name.
    baseURLEnv: 'AZURE_OPENAI_BASE_URL',
    baseURLHint: 'https://<resource>.openai.azure.com/openai/v1/',
    batch: false,
    source: 'Azure OpenAI docs: API version lifecycle (the v1 API with the OpenAI client and an API key)',
    asOf: READ,
  }),
  entry({
    id: 'bedrock',
    label: 'Claude on Amazon Bedrock',
    wire: 'bedrock',
    // A Bedrock API key; without it, requests are SigV4-signed with the AWS credential chain.
    keyEnv: 'AWS_BEARER_TOKEN_BEDROCK',
    keyRequired: false,
    credentials: 'AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, with AWS_SESSION_TOKEN for temporary ones; or AWS_PROFILE, SSO, a role) or AWS_BEARER_TOKEN_BEDROCK',
    baseURLEnv: 'ANTHROPIC_BEDROCK_BASE_URL',
    region: { env: 'AWS_REGION', default: 'us-east-1', baseURL: (r) => `https://bedrock-runtime.${r}.amazonaws.com` },
    // The Bedrock client of the SDK has no Message Batches (Bedrock's batch inference is a job API of its own).
    batch: false,
    source: 'Anthropic docs: Claude on Amazon Bedrock; @anthropic-ai/bedrock-sdk 1.1.4 README and client (auth precedence, AWS_REGION, ANTHROPIC_BEDROCK_BASE_URL)',
    asOf: '2026-12-04',
  }),
  entry({
    id: 'vertex',
    label: 'Claude on Google Vertex AI',
    wire: 'vertex',
    // Not a key: the service-account file of Google's application default credentials, when one is used.
    keyEnv: 'GOOGLE_APPLICATION_CREDENTIALS',
    keyRequired: false,
    credentials:
      'Google application default credentials (GOOGLE_APPLICATION_CREDENTIALS, `gcloud auth application-default login` or the metadata server), with CLOUD_ML_REGION and ANTHROPIC_VERTEX_PROJECT_ID',
    baseURLEnv: 'ANTHROPIC_VERTEX_BASE_URL',
    region: { env: 'CLOUD_ML_REGION', baseURL: vertexEndpoint },
    batch: false,
    source: 'Anthropic docs: Claude on Vertex AI; @anthropic-ai/vertex-sdk 1.1.4 README and client (CLOUD_ML_REGION, ANTHROPIC_VERTEX_PROJECT_ID, global and multi-region endpoints)',
    asOf: '2026-12-04',
  }),
];

/** Vertex AI's endpoint of a region, as its SDK builds it: `global` and the `us` / `eu` multi-regions have their own hosts. */
function vertexEndpoint(region: string): string {
  if (region === 'global') return 'https://aiplatform.googleapis.com/v1';
  if (region === 'us' || region === 'eu') return `https://aiplatform.${region}.rep.googleapis.com/v1`;
  return `https://${region}-aiplatform.googleapis.com/v1`;
}

/** A provider the project speaks to: the union of the registry's ids. */
export type ProviderId = (typeof PROVIDERS)[number]['id'];

/** The registry's ids, in order (what the schema enum and the grammar are made of). */
export const PROVIDER_IDS = PROVIDERS.map((p) => p.id) as [ProviderId, ...ProviderId[]];

const BY_ID = new Map<string, ProviderDescriptor>(PROVIDERS.map((p) => [p.id, p]));

/**
 * Adds a provider beside the built-in ones (a test's preset on a wire of its own); returns what
 * takes it away again. Model specs naming it parse from then on; the schemas and docs list the
 * built-in ones. An id already taken is refused.
 */
export function registerProvider(d: ProviderDescriptor): () => void {
  if (BY_ID.has(d.id)) throw new Error(`provider "${d.id}" is already registered`);
  BY_ID.set(d.id, d);
  return () => void BY_ID.delete(d.id);
}

/** Every provider id a model spec may name now: the built-in ones, then any registered since. */
export function providerIds(): string[] {
  return [...BY_ID.keys()];
}

export function isProviderId(id: string): id is ProviderId {
  return BY_ID.has(id);
}

export function providerDescriptor(id: ProviderId): ProviderDescriptor {
  const d = BY_ID.get(id);
  if (!d) throw new Error(`unknown provider "${id}"`); // unreachable for a checked ProviderId
  return d;
}

/** The wire format a provider speaks. */
export function wireOf(id: ProviderId): Wire {
  return providerDescriptor(id).wire;
}

/** The ids as a reader lists them: `openai, anthropic, ollama, …` (all, or those `where` holds). */
export function providerList(where: (d: ProviderDescriptor) => boolean = () => true): string {
  return [...BY_ID.values()]
    .filter(where)
    .map((p) => p.id)
    .join(', ');
}
