import { z } from 'zod';
import { assertionObject, defineAssertion } from './define.js';
import { charLength, quote } from './format.js';
import { levenshtein } from './levenshtein.js';

/**
 * Normalized edit similarity to a reference text: 1 − distance / longer length (1 when both
 * are empty). Soft by default, since near-misses are expected. The threshold follows the global
 * rule (deterministic default 1.0, i.e. an exact match); users normally set `threshold`, e.g. 0.8.
 */
export const similarity = defineAssertion(
  assertionObject('similarity', { value: z.string() }),
  (spec, ctx) => {
    const longest = Math.max(charLength(spec.value), charLength(ctx.reply));
    const distance = levenshtein(ctx.reply, spec.value);
    const score = longest === 0 ? 1 : 1 - distance / longest;
    return {
      score,
      message: `similarity to ${quote(spec.value)}: ${score.toFixed(2)} (edit distance ${distance} over ${longest} chars)`,
    };
  },
  'soft',
);

export const similarityAssertions = [similarity] as const;
