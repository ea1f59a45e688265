import type { CaseResult } from '../../core/results-schema.js';
import { cutText } from '../../core/cut-text.js';
import { shownParts } from '../../core/shown-parts.js';
import type { InputPart } from '../../core/content-parts.js';
import type { ReporterEvents } from '../../report/reporter.js';
import type { PlannedCase } from '../../suite/plan.js';

/** Each text of what a case asked (its input, a message, a turn, its reference) is kept up to this many characters. */
export const ASKED_MAX_CHARS = 20_000;

export type CaseAsked = Pick<CaseResult, 'input' | 'inputParts' | 'messages' | 'turns' | 'reference'>;

/**
 * What a case asked, whole, as its eval file or dataset row gave it: its turns' user messages, or
 * its history, or its input (planned as a history of that one user message); and its reference.
 */
export function caseAsked(c: Pick<PlannedCase, 'input' | 'parts' | 'messages' | 'turns' | 'reference'>): CaseAsked {
  const [only, ...more] = c.messages;
  const plain = more.length === 0 && only?.role === 'user' && only.content === c.input;
  const shown = (parts: readonly InputPart[] | undefined) => (parts ? { parts: shownParts(parts) } : {});
  const asked: CaseAsked = c.turns
    ? { turns: c.turns.map((t) => ({ input: t.input, ...shown(t.parts) })) }
    : plain
      ? { input: c.input, ...(c.parts ? { inputParts: shownParts(c.parts) } : {}) }
      : { messages: c.messages.map((m) => ({ role: m.role, content: m.content, ...shown(m.parts) })) };
  return c.reference !== undefined ? { ...asked, reference: c.reference } : asked;
}

/** A case result with each asked text cut at `maxChars`, with the marker of `cutText`. */
function boundAsked(result: CaseResult, maxChars: number = ASKED_MAX_CHARS): CaseResult {
  // Nearly every case asks less than the bound: passed on as it is, not copied.
  const long = (text: string | undefined) => text !== undefined && text.length > maxChars;
  if (!long(result.input) && !long(result.reference) && !result.messages?.some((m) => long(m.content)) && !result.turns?.some((t) => long(t.input))) return result;
  const cut = (text: string) => cutText(text, maxChars);
  return {
    ...result,
    ...(result.input !== undefined ? { input: cut(result.input) } : {}),
    ...(result.messages ? { messages: result.messages.map((m) => ({ ...m, content: cut(m.content) })) } : {}),
    ...(result.turns ? { turns: result.turns.map((t) => ({ ...t, input: cut(t.input) })) } : {}),
    ...(result.reference !== undefined ? { reference: cut(result.reference) } : {}),
  };
}

/**
 * The reporter edge that cuts what each case asked. It sits inside the redacting edge: the run's
 * secrets are redacted from the whole texts first, so a cut can never keep the start of one.
 */
export function askedBoundReporter(inner: ReporterEvents): ReporterEvents {
  return {
    onBegin: (info) => inner.onBegin(info),
    onTrialEnd: (c, trial) => inner.onTrialEnd(c, trial),
    onCaseEnd: (result, c) => inner.onCaseEnd(boundAsked(result), c),
    onWarning: (message) => inner.onWarning(message),
    onEnd: (info) => inner.onEnd(info),
  };
}
