import { stableHash } from '../core/stable-hash.js';
import { isJudgeType } from '../judges/spec.js';
import type { PlannedCase, Turn } from './plan.js';
import type { InputPart } from '../core/content-parts.js';
import type { TsAssertionSpec } from './schema.js';

/** What a judged assertion keeps in the case fingerprint: its place and weight in the case, not how it is judged. */
const CASE_SIDE = ['type', 'severity', 'weight', 'label', 'on'];

/**
 * A hash of what a case asks and checks: its input or messages or turns, the tool results it serves,
 * reference, assertions and a TS `check`. A baseline uses it to tell an edited case (`changed`) from one that got worse.
 * Functions count by their source text as written: any edit to a TS check (its judge calls
 * included) changes the case, what it calls or reads from outside it does not. How its judged
 * assertions are judged (criteria, scale, threshold, judge …) is left out: that is the judge
 * fingerprint's (judge-fingerprint.ts), which every judged result records at run time, a check's
 * included, so an edited YAML rubric or judge reads `judge changed`, not `changed`.
 */
export function caseFingerprint(c: FingerprintedCase): string {
  let known = fingerprints.get(c);
  if (known === undefined) fingerprints.set(c, (known = fingerprintOf(c)));
  return known;
}

type FingerprintedCase = Pick<PlannedCase, 'input' | 'parts' | 'messages' | 'turns' | 'simulatedUser' | 'toolResults' | 'reference' | 'assertions' | 'check'>;

/**
 * A run asks for a case's fingerprint when it records its plan (runner/resume/resume-plan.ts) and again in
 * the case's result: worked out once per case object, whose fields are read-only once planned.
 */
const fingerprints = new WeakMap<FingerprintedCase, string>();

function fingerprintOf(c: FingerprintedCase): string {
  const what = {
    input: c.input,
    // An input of parts: its images and files by digest (a text-only case keeps its old fingerprint).
    ...(c.parts ? { parts: partsSide(c.parts) } : {}),
    messages: c.messages.map((m) => (m.parts ? { ...m, parts: partsSide(m.parts) } : m)),
    turns: c.turns?.map(turnSide) ?? null,
    // Only when present: every other case keeps the fingerprint it had.
    ...(c.simulatedUser ? { simulatedUser: c.simulatedUser } : {}),
    ...(c.toolResults ? { toolResults: c.toolResults } : {}),
    reference: c.reference ?? null,
    assertions: c.assertions.map(caseSide),
    check: c.check ?? null,
  };
  return stableHash(what, 16, (_key, value: unknown) => (typeof value === 'function' ? `function:${String(value)}` : value));
}

function caseSide(spec: TsAssertionSpec): TsAssertionSpec {
  if (!isJudgeType(spec.type)) return spec;
  return Object.fromEntries(Object.entries(spec).filter(([k]) => CASE_SIDE.includes(k))) as TsAssertionSpec;
}

function turnSide(turn: Turn): unknown {
  const t = turn.parts ? { ...turn, parts: partsSide(turn.parts) } : turn;
  return t.assert ? { ...t, assert: (t.assert as TsAssertionSpec[]).map(caseSide) as Turn['assert'] } : t;
}

/** Parts by what they are: text whole, an image or file by its digest (or URL), never its bytes. */
function partsSide(parts: readonly InputPart[]): string[] {
  return parts.map((p) => (p.type === 'text' ? p.text : 'url' in p ? p.url : p.sha256));
}
