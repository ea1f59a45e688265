import { z } from 'zod';
import type { StructuredOutput } from '../providers/types.js';

/** How a drafted input exercises its intent: an ordinary request, an unusual but legitimate one, or one that tries to misuse the agent. */
export const KINDS = ['typical', 'edge', 'adversarial'] as const;
export type ItemKind = (typeof KINDS)[number];

/** Longest input, intent label and reference the generator may write (an answer beyond them is not the one asked for). */
const MAX_INPUT = 4000;
const MAX_INTENT = 80;
const MAX_REFERENCE = 4000;

/** One drafted case as the generator writes it (its text is untrusted: it reaches the file as data only). */
export interface GeneratedItem {
  intent: string;
  kind: ItemKind;
  input: string;
  expectedTools: string[];
  avoidTools?: string[];
  reference?: string;
}

const toolNames = z.array(z.string().min(1).max(128)).max(32);

/**
 * What the generator answers: a list of items. With `intents` given, each item's intent is one of
 * them (the wire's `enum` asks for it; the check holds a model that ignores it to it).
 */
export function answerSchema(intents: readonly string[] | undefined) {
  const intent = intents?.length ? z.enum(intents as [string, ...string[]]) : z.string().trim().min(1).max(MAX_INTENT);
  const item = z
    .object({
      intent,
      kind: z.enum(KINDS),
      input: z.string().trim().min(1).max(MAX_INPUT),
      expectedTools: toolNames,
      avoidTools: toolNames.optional(),
      // Strict structured output has no optional fields: "no reference" comes as null.
      reference: z.string().max(MAX_REFERENCE).nullable().optional(),
    })
    .strict()
    .transform((i): GeneratedItem => ({
      intent: i.intent,
      kind: i.kind,
      input: i.input,
      expectedTools: i.expectedTools,
      ...(i.avoidTools?.length ? { avoidTools: i.avoidTools } : {}),
      ...(i.reference?.trim() ? { reference: i.reference.trim() } : {}),
    }));
  return z.object({ items: z.array(item).min(1) }).strict();
}

/**
 * The answer's shape as the wire asks for it: strict structured output takes only a subset of JSON
 * Schema (every property required, no length limits), so `answerSchema` checks the rest.
 */
export function answerFormat(intents: readonly string[] | undefined): StructuredOutput {
  const strings = { type: 'array', items: { type: 'string' } };
  return {
    name: 'generated_cases',
    jsonSchema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              intent: intents?.length ? { type: 'string', enum: [...intents] } : { type: 'string', description: 'a short kebab-case label of what the user wants' },
              kind: { type: 'string', enum: [...KINDS] },
              input: { type: 'string', description: 'the message as the user would write it' },
              expectedTools: { ...strings, description: 'tools a correct agent calls for it (names from the configuration)' },
              avoidTools: { ...strings, description: 'tools a correct agent must not call for it' },
              reference: { type: ['string', 'null'], description: 'a short correct answer when the configuration makes it knowable, else null' },
            },
            required: ['intent', 'kind', 'input', 'expectedTools', 'avoidTools', 'reference'],
            additionalProperties: false,
          },
        },
      },
      required: ['items'],
      additionalProperties: false,
    },
  };
}
