/** mulberry32: deterministic pseudo-random numbers in [0, 1), so a test's draws (and any failure) reproduce. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` Bernoulli outcomes with success chance `p`, drawn from `seed`: trial i passes when `outcomes[i]`. */
export function seededOutcomes(seed: number, p: number, n: number): boolean[] {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, () => rand() < p);
}
