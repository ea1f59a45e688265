/** The Gemini API wire's defaults: shared by its descriptor, its request builder and its table rows. */
import type { WireTable } from '../../capabilities.js';

/**
 * A model the table does not know gets what every current Gemini model takes (Gemini API docs:
 * Structured output, Thinking, read 2026-12-04): sampling parameters, a JSON Schema answer
 * (`structuredOutput: 'json_schema'` is `responseMimeType: 'application/json'` with
 * `responseJsonSchema` on this wire), thinking on unless turned off, no reasoning effort. The
 * output-token field is `maxOutputTokens` whatever `tokenParam` says (the wire has one name).
 */
export const GEMINI_TABLE: WireTable = {
  id: 'google',
  defaultCapabilities: { sampling: 'any', structuredOutput: 'json_schema', thinking: 'default-on', tokenParam: 'max_tokens' },
};

/** The npm package the wire's provider loads: an optional peer dependency, named when it is missing. */
export const GEMINI_SDK_PACKAGE = '@google/genai';
