import type { Criterion, Judge, JudgeRequest, JudgeScore } from '../core/judge-port.js';
import { addUsage } from '../core/usage.js';

type Outcome = 'win' | 'loss' | 'tie';

/** What a positional answer means for the graded output. */
function outcomeOf(choice: string | undefined, actualPosition: 'A' | 'B'): Outcome {
  if (choice === 'tie' || choice === undefined) return 'tie';
  return choice === actualPosition ? 'win' : 'loss';
}

export interface PairwiseResult extends JudgeScore {
  outcome: Outcome;
  positionInconsistent: boolean;
}

/**
 * Pairwise judging in both orders (graded output first, then second). A verdict that flips with
 * the order is position bias, reported as a tie marked `positionInconsistent`.
 */
export async function judgePairwise(judge: Judge, req: JudgeRequest, other: string, prefer: 'actual' | 'reference', bothOrders: boolean): Promise<PairwiseResult> {
  const base = req.criterion as Extract<Criterion, { kind: 'pairwise' }>;
  const ask = (actualPosition: 'A' | 'B') =>
    judge.judge({
      ...req,
      criterion: { ...base, actualPosition, first: actualPosition === 'A' ? req.output : other, second: actualPosition === 'A' ? other : req.output },
    });
  // A batch judge asks both orders at once, so they go in the same batch rather than one after the other.
  const [first, second] = judge.batch && bothOrders ? await Promise.all([ask('A'), ask('B')]) : [await ask('A'), bothOrders ? await ask('B') : undefined];
  const o1 = outcomeOf(first.choice, 'A');
  const o2 = second ? outcomeOf(second.choice, 'B') : o1;
  const positionInconsistent = o1 !== o2;
  const outcome: Outcome = positionInconsistent ? 'tie' : o1;
  const wanted: Outcome = prefer === 'actual' ? 'win' : 'loss';
  const score = outcome === 'tie' ? 0.5 : outcome === wanted ? 1 : 0;
  const choices = second ? `${first.choice}/${second.choice}` : `${first.choice}`;
  return {
    score,
    outcome,
    positionInconsistent,
    choice: choices,
    reason: second ? `order 1: ${first.reason} | order 2: ${second.reason}` : first.reason,
    evidence: [...first.evidence, ...(second?.evidence ?? [])],
    ...(first.raw !== undefined ? { raw: second?.raw !== undefined ? `${first.raw}\n${second.raw}` : first.raw } : {}),
    usage: second ? addUsage(first.usage, second.usage) : first.usage,
    ...(first.cached && (second?.cached ?? true) ? { cached: true } : {}),
    ...(first.savedTokens || second?.savedTokens ? { savedTokens: (first.savedTokens ?? 0) + (second?.savedTokens ?? 0) } : {}),
  };
}
