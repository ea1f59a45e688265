/** The OpenAI Chat Completions wire's defaults: shared by its descriptor and its request builder. */
import type { PdfLimits, WireTable } from '../../capabilities.js';

const MB = 1024 * 1024;
const PDF_SOURCE =
  'OpenAI docs: File inputs guide, file size limitations (128 MB and 600 pages per request, 100 pages for a model whose context window is under 1M tokens, as issue 43 read it; the stored copies read 2026-12-04 show the guide but not that section, and an earlier copy said 32 MB and 100 pages)';
/** OpenAI's PDF limits for models with a 1M-token context window (model-table.ts names them). */
export const OPENAI_PDF_1M: PdfLimits = { maxBytes: 128 * MB, maxPages: 600, source: PDF_SOURCE, asOf: '2026-12-04' };

/**
 * A model the table does not know gets what every Chat Completions model takes: sampling
 * parameters, a strict `json_schema` response format, `max_completion_tokens`.
 */
export const OPENAI_TABLE: WireTable = {
  id: 'openai',
  defaultCapabilities: { sampling: 'any', structuredOutput: 'json_schema', thinking: 'off', tokenParam: 'max_completion_tokens' },
  // A context under 1M tokens (or one the table does not know): the 100-page limit.
  pdfLimits: { ...OPENAI_PDF_1M, maxPages: 100 },
};
