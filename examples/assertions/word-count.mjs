/**
 * A user assertion: the reply has between `min` and `max` words. List this file in the config's
 * `assertions` and eval files can write `- type: wordCount` with `max: 50` (docs/guide/custom-assertions.md).
 */
export default {
  apiVersion: 1,
  name: 'wordCount',
  description: 'The reply has between min and max words (whitespace-separated).',
  // The options, checked when an eval file loads: a misspelt or mistyped option is an error naming its line.
  schema: {
    type: 'object',
    properties: {
      min: { type: 'integer', minimum: 0 },
      max: { type: 'integer', minimum: 0 },
    },
    additionalProperties: false,
  },
  evaluate(reply, options) {
    const words = reply.split(/\s+/).filter(Boolean).length;
    const min = options.min ?? 0;
    const max = options.max ?? Infinity;
    return { pass: words >= min && words <= max, message: `${words} words (expected ${min} to ${max})` };
  },
};
