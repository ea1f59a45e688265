// The word diff of two replies (Before and after), by jsdiff's diffWords, inlined into the page
// script by the bundle. Pure: it returns parts; before-after.ts puts them on the page as text.
import { diffWords } from 'diff';

/** A run of text: in both replies, only the baseline's (`del`) or only this run's (`ins`). */
export interface DiffPart {
  kind: 'same' | 'del' | 'ins';
  text: string;
}

/**
 * Past this many edits (words and runs of words changed) the two texts are too unlike for a word
 * diff to help, and diffing them grows costly: the diff is given up and both texts are shown as they are.
 * A bound on work, not on time, so the page shows the same on every machine.
 */
export const MAX_EDIT = 1_000;

/** The parts turning `before` into `after`, or null when they differ by more than MAX_EDIT edits. */
export function wordDiff(before: string, after: string): DiffPart[] | null {
  const changes = diffWords(before, after, { maxEditLength: MAX_EDIT });
  if (!changes) return null;
  return changes.map((c) => ({ kind: c.added ? 'ins' : c.removed ? 'del' : 'same', text: c.value }));
}
