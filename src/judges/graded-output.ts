import { cutText } from '../core/cut-text.js';

/**
 * The output a judge grades is bounded: a 1 MB reply must not become a 250,000-token judge call.
 * Past the limit the judge sees the start and a marker saying how much was left out, so it can
 * tell a cut reply from a short one.
 */
export const DEFAULT_JUDGE_MAX_OUTPUT_CHARS = 100_000;

export function boundGradedOutput(text: string, maxChars: number = DEFAULT_JUDGE_MAX_OUTPUT_CHARS): string {
  return cutText(text, maxChars);
}
