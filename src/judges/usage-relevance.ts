import type { Criterion } from '../core/judge-port.js';

/**
 * Words by which a criterion asks about cost or length (tokens, spend, budget, brevity, verbosity,
 * efficiency). Only then does the judge see the target's token usage: for any other criterion the
 * counts are noise that every judgment would pay for.
 */
const ABOUT_USAGE =
  /\b(tokens?|cost(s|ly)?|cheap(er|ly)?|expensive|budget|spend(s|ing)?|spent|price[ds]?|usage|length|lengthy|long(er)?|short(er)?|concise(ness)?|brief|brevity|verbose|verbosity|wordy|efficien(t|tly|cy))\b/i;

/** Whether the criterion's own words (its criteria, question or dimensions) ask about cost or length. */
export function criterionAsksAboutUsage(c: Criterion): boolean {
  switch (c.kind) {
    case 'rubric':
      return ABOUT_USAGE.test([c.criteria, ...c.dimensions, ...Object.keys(c.choices ?? {})].join('\n'));
    case 'summarizes':
      return ABOUT_USAGE.test(c.dimensions.join('\n'));
    case 'closedQa':
      return ABOUT_USAGE.test(c.question);
    case 'pairwise':
      return ABOUT_USAGE.test(c.criteria);
    case 'factuality':
    case 'sql':
      return false;
  }
}
