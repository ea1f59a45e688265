/**
 * What a model accepts, as one record per model family: the request builders read it instead of
 * guessing from today's model names. The rows live in model-table.ts; a model spec may override any
 * field for a model the table does not know (`capabilities: {...}` in the config).
 */
import { z } from 'zod';

export const CapabilitiesSchema = z
  .object({
    /**
     * Which sampling parameters (temperature, top_p, top_k) a request may carry:
     * `any` — sent when asked for; `none` — never sent (Anthropic from API version 2026-10-21, OpenAI
     * reasoning models); `reasoning-off` — only when the request's reasoning effort is `none`.
     */
    sampling: z.enum(['any', 'none', 'reasoning-off']),
    /**
     * How a structured (JSON-schema) answer is asked for: `json_schema` (OpenAI strict response format),
     * `output_config` (Anthropic `output_config.format`), `forced_tool` (a tool the model must call),
     * `text` (the schema in the prompt, JSON read from the reply: servers without structured output).
     */
    structuredOutput: z.enum(['json_schema', 'output_config', 'forced_tool', 'text']),
    /**
     * Thinking / reasoning: `off` (the model does not think), `optional` (off unless asked), `default-on`
     * (thinks unless turned off), `always` (cannot be turned off). Thinking tokens count against the token
     * limit, and in tool loops a thinking model's thinking blocks go back with its tool calls.
     */
    thinking: z.enum(['off', 'optional', 'default-on', 'always']),
    /** The name of the output-token limit in a request. */
    tokenParam: z.enum(['max_tokens', 'max_completion_tokens']),
    /** Reasoning-effort values the model accepts (OpenAI `reasoning_effort`, Anthropic `output_config.effort`); absent: none. */
    reasoningEfforts: z.array(z.string().min(1)).optional(),
    /**
     * Function tools on OpenAI Chat Completions: `any` (absent means this); `reasoning-off` — only at
     * reasoning effort `none` (a tool request with no effort set is sent at `none`); `none` — the model
     * takes function tools only on the Responses API, so a tool request is a configuration error.
     */
    chatTools: z.enum(['any', 'reasoning-off', 'none']).optional(),
    /** The largest output-token limit the model accepts. */
    maxOutputTokens: z.number().int().positive().optional(),
    /** The shortest prompt prefix, in tokens, the provider caches for this model. */
    promptCacheMinTokens: z.number().int().nonnegative().optional(),
  })
  .strict();
export type ModelCapabilities = z.infer<typeof CapabilitiesSchema>;

/** A model spec's override: any subset of the fields. */
export const CapabilityOverridesSchema = CapabilitiesSchema.partial().strict();
export type CapabilityOverrides = z.infer<typeof CapabilityOverridesSchema>;

/** The id of a wire format (a descriptor in wires.ts: `openai`, `anthropic`); every provider speaks one. */
export type Wire = string;

/**
 * The most PDF a request may carry, all its PDFs together, as the provider documents it: the run
 * refuses a case over it before any call (a refusal after a paid call, or a silent truncation, is worse).
 */
export interface PdfLimits {
  /** Bytes of PDF (before base64) per request. */
  maxBytes: number;
  /** Pages per request. */
  maxPages: number;
  /** Where the limits were read, in words (never a link), and when. */
  source: string;
  asOf: string;
}

/** What the capability table needs of a wire: its id (the rows' `wire`) and what a model it does not know gets. */
export interface WireTable {
  id: Wire;
  defaultCapabilities: ModelCapabilities;
  /** The wire's PDF limits, for a model whose row has none of its own. */
  pdfLimits?: PdfLimits;
  /**
   * A wire serving another wire's models (the OpenAI Responses API reads the `openai` rows; Claude on
   * Bedrock and Vertex AI under ids of its own): the wire whose rows (and prices) they have, and a
   * model's id there (`anthropic.claude-sonnet-5-5-v1:0` is `claude-sonnet-5-5`).
   */
  rowsOf?: { wire: Wire; modelId(model: string): string };
}

/** One row of the table: a model family of one wire, what it accepts, where that was read and when. */
export interface ModelFamilyRow {
  wire: Wire;
  /** The family id as modelFamily() returns it (`gpt-5.5`, `claude-sonnet-5-5`). */
  family: string;
  /** Also matches ids that continue the family after `-` or `.` (`gpt-6` covers `gpt-6.1-terra`). */
  prefix?: boolean;
  capabilities: ModelCapabilities;
  /** Lifecycle dates where the provider announced them (YYYY-MM-DD). */
  deprecated?: string;
  shutdown?: string;
  /** PDF limits where the model's differ from its wire's (OpenAI: 600 pages with a 1M-token context). */
  pdfLimits?: PdfLimits;
  /** Where the facts were read, in words (never a link), and the date they were read. */
  source: string;
  asOf: string;
}
