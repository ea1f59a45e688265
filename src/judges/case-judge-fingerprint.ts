import type { CaseJudgeFingerprint, TrialResult } from '../core/results-schema.js';
import { stableHash } from '../core/stable-hash.js';
import { boundedMemo } from '../core/bounded-memo.js';
import { isJudgeType } from './spec.js';

/**
 * A case's judges, from what its trials recorded: each judged assertion by its place (type and
 * ordinal among the judged assertions of its turn, so an edited criteria text keeps its place), with
 * the fingerprint its first trial recorded; `hash` covers every distinct fingerprint at every place,
 * so a judge that differed between trials still shows. Undefined when no judged assertion recorded one.
 */
export function caseJudgeFingerprint(trials: readonly TrialResult[]): CaseJudgeFingerprint | undefined {
  const first = new Map<string, CaseJudgeFingerprint['assertions'][number]>();
  const pairs = new Set<string>();
  for (const t of trials) {
    const ordinals = new Map<string, number>();
    for (const a of t.assertions) {
      if (!isJudgeType(a.kind)) continue;
      const slot = `${a.turn !== undefined ? `turn ${a.turn} ` : ''}${a.kind}`;
      const n = (ordinals.get(slot) ?? 0) + 1;
      ordinals.set(slot, n);
      if (!a.judgeFingerprint) continue;
      const key = `${slot}#${n}`;
      if (!first.has(key)) first.set(key, { key, name: a.name, judge: a.judgeFingerprint });
      pairs.add(`${key}=${a.judgeFingerprint.hash}`);
    }
  }
  if (first.size === 0) return undefined;
  return { hash: pairsHash([...pairs].sort()), assertions: [...first.values()] };
}

/** Most cases of a suite share their judges: each distinct set is hashed once, not once a case. */
const hashes = boundedMemo<string, string>(1_000);

function pairsHash(sorted: string[]): string {
  return hashes(JSON.stringify(sorted), () => stableHash(sorted));
}
