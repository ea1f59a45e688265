import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import type { PlannedCase } from './plan.js';

// Keys sorted, so a reordered mapping in YAML is the same case; a cycle is marked, never thrown on.
const stringify = configure({ deterministic: true, circularValue: '[circular]', bigint: true });

/**
 * A hash of what a case asks and checks: its input or messages or turns, reference, assertions and
 * a TS `check`. A baseline uses it to tell an edited case (`changed`) from one that got worse.
 * Functions count by their source text: an edit to a TS check changes the case, what it calls does not.
 */
export function caseFingerprint(c: Pick<PlannedCase, 'input' | 'messages' | 'turns' | 'reference' | 'assertions' | 'check'>): string {
  const what = { input: c.input, messages: c.messages, turns: c.turns ?? null, reference: c.reference ?? null, assertions: c.assertions, check: c.check ?? null };
  const text = stringify(what, (_key, value: unknown) => (typeof value === 'function' ? `function:${String(value)}` : value)) ?? '';
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
