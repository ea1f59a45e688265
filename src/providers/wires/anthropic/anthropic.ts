import Anthropic from '@anthropic-ai/sdk';
import { warnOncePerSpec } from '../../spec-warning.js';
import { fromAnthropicMessage, toAnthropicParams, type AnthropicOptions } from './anthropic-wire.js';
import type { WireTable } from '../../capabilities.js';
import { toProviderError, type ErrorContext } from '../../errors.js';
import { formatModelSpec, specCapabilitiesOn, type ModelSpec } from '../../model-spec.js';
import { ANTHROPIC_TABLE, defaultAnthropicMaxTokens } from './facts.js';
import { inRequestScope } from '../../rate-limit-fetch.js';
import { errorContext, sdkClientOptions, type ProviderSettings } from '../../settings.js';
import type { CompletionRequest, CompletionResponse, Provider, ProviderId } from '../../types.js';

/** The Messages params for `req` under the spec's defaults: what a live call sends, and a batch line. */
export function anthropicParams(spec: ModelSpec, req: CompletionRequest, options: AnthropicOptions = anthropicRequestOptions(spec)): Anthropic.MessageCreateParamsNonStreaming {
  return toAnthropicParams(spec.model, req, options);
}

/** How every request under `spec` is shaped: the same for each call, so a provider works it out once. */
export function anthropicRequestOptions(spec: ModelSpec, table: WireTable = ANTHROPIC_TABLE): AnthropicOptions {
  const capabilities = specCapabilitiesOn(table, spec);
  const tableModel = table.rowsOf?.modelId(spec.model);
  return {
    maxTokens: spec.maxTokens ?? defaultAnthropicMaxTokens(capabilities),
    capabilities,
    ...(spec.reasoningEffort !== undefined ? { effort: spec.reasoningEffort } : {}),
    ...(tableModel !== undefined ? { tableModel } : {}),
  };
}

/**
 * A `temperature` in an Anthropic model spec (a config written for the older API version) is
 * ignored, not a config error, so existing configs keep running: the run says so once per spec.
 */
export function ignoredTemperatureWarning(spec: Pick<ModelSpec, 'provider' | 'model' | 'temperature'>): string | undefined {
  if (spec.temperature === undefined) return undefined;
  return (
    `${formatModelSpec(spec)}: temperature ${spec.temperature} is ignored: the Anthropic API version this SDK speaks (2026-10-21) ` +
    'refuses temperature, top_p and top_k on every model; remove it from the model spec'
  );
}

/** Writes the warning for `spec` to stderr the first time that spec is seen in this process. */
export function warnIgnoredTemperature(spec: Pick<ModelSpec, 'provider' | 'model' | 'temperature'>, write?: (line: string) => void): void {
  warnOncePerSpec(ignoredTemperatureWarning(spec), write);
}

/**
 * Where Messages requests go when not to Anthropic's own API (Claude on Bedrock and Vertex AI): the
 * platform SDK's client (the same `messages.create`), the wire whose capability rows its model ids
 * are read under, and how its errors are named.
 */
export interface MessagesEndpoint {
  client: { messages: Pick<Anthropic['messages'], 'create'> };
  table: WireTable;
  /** A platform's own mapping of what its client threw (its credential chain's failures). */
  toError(err: unknown, ctx: ErrorContext): Error;
}

/** Anthropic Messages over the official SDK (or a cloud platform's SDK built on it); retries and backoff are the SDK's. */
export class AnthropicProvider implements Provider {
  readonly id: ProviderId;
  readonly model: string;
  readonly spec: string;
  // Private fields: the client holds the API key and must not show up in JSON or inspect output.
  readonly #client: MessagesEndpoint['client'];
  readonly #toError: MessagesEndpoint['toError'];
  readonly #settings: ProviderSettings;
  readonly #requestOptions: AnthropicOptions;

  constructor(settings: ProviderSettings, endpoint?: MessagesEndpoint) {
    this.#settings = settings;
    this.id = settings.spec.provider;
    this.#requestOptions = anthropicRequestOptions(settings.spec, endpoint?.table);
    this.model = settings.spec.model;
    this.spec = formatModelSpec(settings.spec);
    this.#client = endpoint?.client ?? new Anthropic(sdkClientOptions(settings));
    this.#toError = endpoint?.toError ?? toProviderError;
    warnIgnoredTemperature(settings.spec);
  }

  async complete(req: CompletionRequest): Promise<CompletionResponse> {
    const params = anthropicParams(this.#settings.spec, req, this.#requestOptions);
    try {
      // The limiter gates each HTTP attempt inside the fetch wrapper, retries included.
      const message = await inRequestScope(req.signal, (options) => this.#client.messages.create(params, options));
      return fromAnthropicMessage(message, req.schema?.name);
    } catch (err) {
      throw this.#toError(err, errorContext(this.#settings));
    }
  }
}
