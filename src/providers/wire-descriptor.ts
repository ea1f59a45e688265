/**
 * A wire format, one descriptor each (wires/<id>/index.ts): everything the project does differently
 * by wire is here, so a new wire (the OpenAI Responses API, Gemini) is one more descriptor and no
 * other file branches on which wire it is. The request and response mapping (request building,
 * response reading, usage, refusal and stop reasons, the structured-output mode, content parts)
 * lives in the provider and batch modules the descriptor loads; what must be known without loading
 * them (defaults, body reading) is a field.
 *
 * Loading: a descriptor's module imports no SDK. `provider`, `batchApi` and `embedder` import their
 * modules (and the SDK) on first use, so naming a provider loads nothing and a preset on one wire
 * never loads another wire's SDK.
 */
import type { BatchApi } from './batch-types.js';
import type { WireTable } from './capabilities.js';
import type { ModelCapabilities } from './capabilities.js';
import type { Embedder } from './embeddings.js';
import type { ModelSpec } from './model-spec.js';
import type { ProviderSettings } from './settings.js';
import type { Provider } from './types.js';
import type { WireBodies } from './wire-bodies.js';

export interface WireDescriptor extends WireTable {
  /** How people name it (`OpenAI Chat Completions`). */
  label: string;
  /**
   * The provider whose models the capability table's rows of this wire were read from: their
   * shutdown dates are its own (an OpenAI-compatible server retires models on its own dates).
   */
  homeProvider: string;
  /**
   * The npm package its provider loads when that is an optional peer dependency of agent-evals
   * (`@google/genai`): a model spec on the wire is refused before any call when it is not installed,
   * naming the package. Absent: the SDK is a dependency, always there.
   */
  sdkPackage?: string;
  /**
   * The request's output-token field when the wire has one name for it, whatever the model's
   * `tokenParam` says (`doctor` names what is sent); absent: the model's `tokenParam`.
   */
  tokenField?: string;
  /** The output-token limit a call gets when neither it nor its model spec sets one (a wire whose API requires one); undefined: none is sent. */
  defaultMaxTokens(caps: ModelCapabilities): number | undefined;
  /**
   * The provider for one resolved model spec: its request building (from `CompletionRequest`, typed
   * by the SDK's own parameter type), response reading into `CompletionResponse` (text, tool calls,
   * usage, finish reason and refusal, provider blocks to replay) and errors as `ProviderError`.
   * A setting the model refuses throws ProviderConfigError here, before any call.
   */
  provider(settings: ProviderSettings): Promise<Provider>;
  /** Its batch API (`--judge-batch`): the batch line format and the result lines; absent: calls are made live. */
  batchApi?(settings: ProviderSettings): Promise<BatchApi>;
  /** Its embeddings endpoint (`similarTo`); absent: the wire makes no embeddings. */
  embedder?(settings: ProviderSettings): Embedder;
  /**
   * Another wire this one's provider sends a given model spec to (the OpenAI Chat Completions wire
   * sends some models to the Responses API, per spec: wires.ts `specWire`); undefined: this wire.
   * `caps` is what the spec's model accepts, from this wire's table rows.
   */
  wireFor?(spec: ModelSpec, caps: ModelCapabilities): WireDescriptor | undefined;
  /**
   * What the API refuses of this spec as the run uses it, by the capability table: the setting and
   * what to do, in words (the caller names the model and the wire), or undefined. Pure: the run
   * asks it of every target and judge before the first call (exit 2), `doctor` before listing.
   * Absent: the wire refuses nothing before a call.
   */
  refusal?(spec: ModelSpec, caps: ModelCapabilities, use: SpecUse): string | undefined;
  /**
   * The reasoning effort its requests under `spec` go out with when used so (`doctor` names it;
   * the request builder sends the same): undefined, none is sent (the provider's default).
   * Absent: the spec's own `reasoningEffort`.
   */
  sentEffort?(spec: ModelSpec, caps: ModelCapabilities, use: SpecUse): string | undefined;
  /** Reading raw bodies off a recording fetch (the SDK clients handed to function targets) and answering a dry run. */
  bodies: WireBodies;
}

/** How a run uses a model spec: whether its requests offer function tools, whether they ask for a structured answer. */
export interface SpecUse {
  tools: boolean;
  structuredOutput: boolean;
}
