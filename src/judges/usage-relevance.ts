import type { Criterion } from '../core/judge-port.js';

/**
 * Words by which a criterion asks about cost or length (tokens, spend, budget, brevity, verbosity,
 * efficiency). Only then does the judge see the target's token usage: for any other criterion the
 * counts are noise that every judgment would pay for.
 */
const ABOUT_USAGE =
  /\b(tokens?|cost(s|ly)?|cheap(er|ly)?|expensive|budget|spend(s|ing)?|spent|price[ds]?|usage|length|lengthy|long(er)?|short(er)?|concise(ness)?|brief|brevity|verbose|verbosity|wordy|efficien(t|tly|cy))\b/i;

/**
 * Words by which a criterion asks about time (latency, speed, duration, timeouts). Only then does the
 * judge see the tools' timings: they differ on every trial, so showing them otherwise would make
 * identical trials look different (no cache hit) and put noise before the judge.
 */
const ABOUT_TIME =
  /\b(latency|latencies|time[ds]?|timings?|timeouts?|durations?|fast(er|est)?|slow(er|est|ly|ness)?|quick(er|est|ly)?|speedy?|rapid(ly)?|responsive(ness)?|(milli)?seconds?|delays?)\b/i;

/** Whether the criterion's own words (its criteria, question or dimensions) ask about cost or length. */
export function criterionAsksAboutUsage(c: Criterion): boolean {
  return criterionMentions(c, ABOUT_USAGE);
}

/** Whether the criterion's own words ask about latency, time or speed: only then are tool timings shown. */
export function criterionAsksAboutTime(c: Criterion): boolean {
  return criterionMentions(c, ABOUT_TIME);
}

function criterionMentions(c: Criterion, words: RegExp): boolean {
  switch (c.kind) {
    case 'rubric':
      return words.test([c.criteria, ...c.dimensions, ...Object.keys(c.choices ?? {})].join('\n'));
    case 'summarizes':
      return words.test(c.dimensions.join('\n'));
    case 'closedQa':
      return words.test(c.question);
    case 'pairwise':
      return words.test(c.criteria);
    case 'factuality':
    case 'sql':
    case 'faithfulness':
    case 'contextRelevance':
    case 'answerRelevance':
      return false;
  }
}
