import { createHash } from 'node:crypto';
import { UserError } from '../core/errors.js';

/** `--shard k/n`: this machine runs part k (1-based) of n. */
export interface ShardSpec {
  index: number;
  total: number;
}

/** `2/3` → `{ index: 2, total: 3 }`; anything else is bad input. */
export function parseShard(text: string): ShardSpec {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || total < 1 || index < 1 || index > total) throw new UserError(`--shard ${text}: expected k/n with 1 ≤ k ≤ n (e.g. --shard 2/3)`);
  return { index, total };
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The shard (1-based) of each case, by its position in `cases`. The rule: cases are taken in the order
 * of the hash of their key (`suite/id [matrix]`), and each goes whole (all its trials) to the shard
 * with the fewest trials so far, the lowest-numbered on a tie. It reads keys and trial counts only:
 * reordering or renaming files moves no case, and every machine computes the same split.
 */
export function shardOf(cases: ReadonlyArray<{ key: string; repeat: number }>, total: number): number[] {
  const order = cases.map((c, i) => ({ i, h: digest(c.key) })).sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
  const trials = new Array<number>(total).fill(0);
  const out = new Array<number>(cases.length);
  for (const { i } of order) {
    let best = 0;
    for (let s = 1; s < total; s++) if (trials[s]! < trials[best]!) best = s;
    trials[best]! += cases[i]!.repeat;
    out[i] = best + 1;
  }
  return out;
}

/** The whole selected plan, in a few bytes: shards of one run agree on it, merge checks it. */
export interface PlanDigest {
  cases: number;
  trials: number;
  /** Hash of the sorted case keys, each with its trial count and content fingerprint. */
  hash: string;
}

export function planDigest(cases: ReadonlyArray<{ key: string; repeat: number; fingerprint: string }>): PlanDigest {
  const lines = cases.map((c) => `${c.key}\t${c.repeat}\t${c.fingerprint}`).sort();
  return { cases: cases.length, trials: cases.reduce((s, c) => s + c.repeat, 0), hash: digest(lines.join('\n')).slice(0, 16) };
}
