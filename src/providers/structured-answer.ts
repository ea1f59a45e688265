import type { z } from 'zod';
import type { Usage } from '../core/usage.js';
import { priced, type Pricing } from './run-usage.js';
import type { Provider, StructuredOutput } from './types.js';

/** Why a model's answer is not the document asked for: not JSON at all, or JSON that breaks the schema at `path`. */
export interface StructuredProblem {
  notJson: boolean;
  /** Where the first issue is (`items.3.kind`); empty for the whole answer or when not JSON. */
  path: string;
  /** The first issue (`not JSON` when not JSON). */
  message: string;
}

export type StructuredRead<T> = { value: T } | { problem: StructuredProblem };

/**
 * The answer's text read as JSON (inside a ```json fence too: a model without enforced structured
 * output often adds one) and checked against `schema`: the value, or the first thing wrong with it.
 */
export function readStructured<T>(text: string, schema: z.ZodType<T>): StructuredRead<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return { problem: { notJson: true, path: '', message: 'not JSON' } };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: { notJson: false, path: issue?.path.join('.') ?? '', message: issue?.message ?? 'not the expected shape' } };
}

export interface StructuredAsk<T> {
  system: string;
  user: string;
  /** The shape as the wire asks for it (strict structured output takes a subset of JSON Schema). */
  format: StructuredOutput;
  /** The shape the answer is checked against (with the limits the wire's subset cannot say). */
  schema: z.ZodType<T>;
  pricing: Pricing;
  signal?: AbortSignal;
}

/**
 * One call asking a model for a structured answer (the attacker's attacks, the user model's next
 * turn, the generator's cases): the answer read and checked against the schema, its tokens priced
 * like any call. The caller says what a problem means (an error naming its model, a failed trial).
 */
export async function askStructured<T>(provider: Provider, ask: StructuredAsk<T>): Promise<{ usage: Usage; text: string } & StructuredRead<T>> {
  const res = await provider.complete({ system: ask.system, messages: [{ role: 'user', content: ask.user }], schema: ask.format, ...(ask.signal ? { signal: ask.signal } : {}) });
  const usage = priced(res.usage, provider.spec, ask.pricing);
  return { usage, text: res.text, ...readStructured(res.text, ask.schema) };
}

/** ` at items.3.kind: <message>`, or `: not JSON`: the problem as the end of an error message. */
export function problemText(problem: StructuredProblem): string {
  return `${problem.path ? ` at ${problem.path}` : ''}: ${problem.message}`;
}
