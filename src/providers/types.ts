import type { TokenUsage } from '../core/usage.js';
import type { MediaPart } from '../core/content-parts.js';
import type { ProviderId } from './registry.js';

/** The providers we speak to (the registry's ids), each over the official SDK of its wire format. */
export type { ProviderId };

/** A tool call the model asked for. `args` is the parsed JSON arguments (the raw string if they were not valid JSON). */
export interface ProviderToolCall {
  id: string;
  name: string;
  args: unknown;
}

/**
 * One turn of a conversation, provider-neutral. A `tool` message answers one tool call of the
 * preceding assistant turn; the adapters regroup them as each wire format requires.
 */
export type ChatMessage =
  | { role: 'system'; content: string }
  /**
   * `stablePrefix`: how many leading characters of `content` are the same across many requests (a
   * judge's task and criteria); a provider that caches prompt prefixes on request marks its end.
   * `attachments`: images and files sent after the text, in each provider's own part format.
   */
  | { role: 'user'; content: string; stablePrefix?: number; attachments?: readonly MediaPart[] }
  | { role: 'assistant'; content: string; toolCalls?: ProviderToolCall[]; providerBlocks?: ProviderBlocks }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

/**
 * An assistant turn as its provider sent it, for a provider that requires the turn back unchanged
 * in the next request of a tool loop (Anthropic: `thinking` / `redacted_thinking` blocks with their
 * signatures, in their place among the turn's text and `tool_use` blocks). Opaque outside that
 * provider's wire mapping, which alone reads `blocks`; another wire ignores it.
 */
export interface ProviderBlocks {
  /** The wire's id (wires.ts). */
  wire: string;
  blocks: readonly unknown[];
}

/** A tool the model may call; `parameters` is a JSON Schema object. */
export interface ProviderTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** Force structured output: the reply text is JSON matching `jsonSchema`. */
export interface StructuredOutput {
  name: string;
  jsonSchema: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'none' | { name: string };

export interface CompletionRequest {
  system?: string;
  messages: ChatMessage[];
  tools?: ProviderTool[];
  toolChoice?: ToolChoice;
  schema?: StructuredOutput;
  /** Overrides the model spec's temperature for this call, where the model takes one (never on Anthropic: see anthropic-wire.ts). */
  temperature?: number;
  /** Overrides the model spec's maxTokens for this call. */
  maxTokens?: number;
  signal?: AbortSignal;
}

/**
 * Why the model stopped, normalized across providers: `stop` (finished), `tool_calls`,
 * `length` (hit maxTokens), `refusal`; anything else is passed through as the provider said it.
 */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'refusal' | (string & {});

export interface CompletionResponse {
  /** The reply text; with `schema`, the JSON document as a string. */
  text: string;
  toolCalls: ProviderToolCall[];
  usage: TokenUsage;
  finishReason: FinishReason;
  /** The model's refusal message, where the wire carries one apart from the text (OpenAI `message.refusal`). */
  refusal?: string;
  /** The model id the server reports (often dated: `gpt-4.1-mini-2025-04-14`). */
  model: string;
  /** The response body as received, for debugging. */
  raw?: string;
  /** Set when the provider needs this turn back as it came (see ProviderBlocks): a tool loop keeps it on the assistant message. */
  providerBlocks?: ProviderBlocks;
}

export interface Provider {
  readonly id: ProviderId;
  readonly model: string;
  /** `provider:model`, e.g. `openai:gpt-4.1-mini`: what pricing and reports key on. */
  readonly spec: string;
  complete(req: CompletionRequest): Promise<CompletionResponse>;
}
