// The review page's keys, in one table: the key handler reads it and the on-page legend shows it,
// so the two cannot disagree.

/** What a key press asks for. */
export type ReviewAction = { kind: 'next' } | { kind: 'previous' } | { kind: 'next-unlabelled' } | { kind: 'verdict'; verdict: 'pass' | 'fail' } | { kind: 'score'; score: number } | { kind: 'clear' };

/** The legend: keys as shown, and what they do. */
export const KEY_LEGEND: [string[], string][] = [
  [['j', '→', '↓'], 'next trial'],
  [['k', '←', '↑'], 'previous trial'],
  [['n'], 'next unlabelled trial'],
  [['p'], 'pass'],
  [['f'], 'fail'],
  [['1', '…', '9', '0'], 'score 1 to 9, 0 for 10'],
  [['x'], 'clear this trial’s label'],
];

/** The action of a key (KeyboardEvent.key), or undefined for a key the page leaves alone. */
export function keyAction(key: string, scale: number): ReviewAction | undefined {
  if (key === 'j' || key === 'ArrowRight' || key === 'ArrowDown') return { kind: 'next' };
  if (key === 'k' || key === 'ArrowLeft' || key === 'ArrowUp') return { kind: 'previous' };
  if (key === 'n') return { kind: 'next-unlabelled' };
  if (key === 'p') return { kind: 'verdict', verdict: 'pass' };
  if (key === 'f') return { kind: 'verdict', verdict: 'fail' };
  if (key === 'x') return { kind: 'clear' };
  if (/^[0-9]$/.test(key)) {
    const score = key === '0' ? scale : Number(key);
    return score <= scale ? { kind: 'score', score } : undefined;
  }
  return undefined;
}
