// A case's first failure reason, for its row: the first trial that erred or missed (not passed, not cut off by Ctrl-C),
// and in it the error or the first failed assertion, as the terminal words it (failure-lines.ts),
// with the judge's reason after. A case that ran nothing says why.
import type { Fields } from './fields';
import type { Assertion, CaseResult } from './types';

/** An assertion's message with its name in front when the message does not already say it. */
function assertionText(a: Assertion, fields: Fields): string {
  const m = fields.plain(a.message === undefined ? '' : a.message);
  const named = m.indexOf(a.kind) === 0 && a.name.indexOf(a.kind) === 0 ? m : a.name + ': ' + m;
  return a.reason !== undefined ? named + ' \u2014 ' + fields.plain(a.reason) : named;
}

/** The first reason the case did not pass, or '' when none of its trials missed. */
export function firstFailure(c: CaseResult, fields: Fields): string {
  for (const t of c.trials) {
    if (t.verdict === 'interrupted' || t.verdict === 'passed') continue;
    if (t.error) return 'error: ' + fields.plain(t.error);
    for (const a of t.assertions) if (a.status === 'failed' || a.status === 'error') return assertionText(a, fields);
  }
  if (!c.trials.length && c.notRun) return 'not run' + (c.notRunReason ? ': ' + c.notRunReason : '');
  return '';
}
