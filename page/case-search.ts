// What the case list's filter box searches in a case: its key, file, verdict, tags and comparison
// change, its first failure reason (whole, not the row's cut line) and the text of what it asked. The
// reason and the asked text are worked out for a case the first time a filter needs them, not at load
// (a 10,000-trial page shows its first cases as soon as before), and kept, as the row's reason is.
import type { Fields } from './fields';
import { firstFailure } from './first-failure';
import type { CaseChange, CaseResult } from './types';

export interface CaseSearch {
  /** The case's first failure reason ('' when none), worked out once. */
  reason(i: number): string;
  /** Whether the case's text holds q (lower case, trimmed); '' matches every case. */
  matches(i: number, q: string): boolean;
}

export function caseSearch(cases: CaseResult[], keys: string[], changes: Record<string, CaseChange>, fields: Fields): CaseSearch {
  const reasons: (string | undefined)[] = [];
  const texts: (string | undefined)[] = [];
  const reason = (i: number): string => {
    let r = reasons[i];
    if (r === undefined) r = reasons[i] = firstFailure(cases[i] as CaseResult, fields);
    return r;
  };
  const text = (i: number): string => {
    let t = texts[i];
    if (t !== undefined) return t;
    const c = cases[i] as CaseResult;
    const key = keys[i] as string;
    t = [key, c.file, c.verdict].concat(c.tags).join(' ');
    const ch = changes[key];
    // 'judge changed' finds judge-changed ('tools changed' tools-changed), as the terminal names them.
    if (ch) t += ' ' + ch.kind + ' ' + ch.kind.split('-').join(' ');
    // On lines of their own: a query spans no two fields.
    t = (t + '\n' + reason(i) + '\n' + askedText(c, fields)).toLowerCase();
    texts[i] = t;
    return t;
  };
  return { reason, matches: (i, q) => !q || text(i).indexOf(q) !== -1 };
}

/**
 * The text of what a case asked: its input, each message of its history, each turn's message (a
 * message given as parts is its text parts' text; images and files are not searched). A text the
 * page cut is searched in the part the page keeps.
 */
function askedText(c: CaseResult, fields: Fields): string {
  const asked: unknown[] = [];
  if (c.input !== undefined) asked.push(c.input);
  (c.messages || []).forEach((m) => asked.push(m.content));
  (c.turns || []).forEach((t) => asked.push(t.input));
  return asked.map((a) => fields.plain(a)).join('\n');
}
