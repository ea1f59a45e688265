import type { CaseResult } from '../../core/results-schema.js';
import { caseKey } from '../../core/matrix.js';
import type { PriceTable } from '../../providers/pricing.js';
import { judgeCalls, trialCost, type JudgeCalls } from './estimate-trial.js';
import { addCaseEmbeddings, emptyEmbeddingEstimate, type EmbeddingEstimate, type PlannedEmbedding } from './estimate-embeddings.js';
import { addUserEstimate, addUserPart, emptyUserEstimate, type PlannedUser, type UserEstimate } from './estimate-user.js';
import { pushAll } from '../../core/push-all.js';
import type { RoleEstimate } from './role-estimate.js';

/** A planned case as the estimate needs it: its key, its suite, how many trials it will run and its simulated user's model. */
export interface EstimatedCase {
  key: string;
  suite: string;
  trials: number;
  /** Its `similarTo` assertions with their embedding models (the `fake` one left out). */
  embeddings?: readonly PlannedEmbedding[];
  user?: PlannedUser;
}

export interface SuiteEstimate {
  suite: string;
  cases: number;
  trials: number;
  target: RoleEstimate;
  judge: RoleEstimate;
  /** The user models of simulated-user cases (estimate-user.ts); zero when no case has one. */
  user: UserEstimate;
  /** Planned cases of the suite the recording does not hold (or holds no finished trial of): listed, not priced. */
  noHistory: string[];
}

export interface CostEstimate {
  suites: SuiteEstimate[];
  total: Omit<SuiteEstimate, 'suite'>;
  /** The recorded judging the judge part assumes again: answers from the cache, and asked through a batch API. */
  judge: JudgeCalls;
  /** `similarTo`'s embeddings, counted from the plan (estimate-embeddings.ts) and in the judge dollars. */
  embeddings: EmbeddingEstimate;
}

/**
 * The expected cost of a plan from a recorded run of the same cases: per case, the mean cost of its
 * recorded trials (re-priced with today's table, see estimate-trial.ts) times the trials planned now,
 * so a case planned for 5 trials and recorded with 3 costs 5/3 of its recording. Early stop may spend
 * less; the estimate is for every planned trial. Interrupted trials are not measured (they spent part).
 */
export function estimateCost(plan: readonly EstimatedCase[], recorded: readonly CaseResult[], pricing: PriceTable): CostEstimate {
  const byKey = new Map(recorded.map((c) => [caseKey(c), c]));
  const suites = new Map<string, SuiteEstimate>();
  const judge: JudgeCalls = { answered: 0, cached: 0, batch: 0 };
  const embeddings = emptyEmbeddingEstimate();
  const embeddedRefs = new Set<string>();
  for (const planned of plan) {
    let s = suites.get(planned.suite);
    if (!s) suites.set(planned.suite, (s = { suite: planned.suite, ...emptyTotals() }));
    s.cases++;
    s.trials += planned.trials;
    const measured = byKey.get(planned.key)?.trials.filter((t) => !t.interrupted) ?? [];
    // Counted from the plan, history or not: the recorded trials' embeddings are left out of their judge cost.
    const replyChars = measured.length ? measured.reduce((n, t) => n + t.reply.length, 0) / measured.length : undefined;
    s.judge.usd += addCaseEmbeddings(embeddings, embeddedRefs, planned.embeddings ?? [], planned.trials, replyChars, pricing);
    if (measured.length === 0) {
      s.noHistory.push(planned.key);
      if (planned.user) s.user.maxCalls += planned.user.maxTurns * planned.trials;
      continue;
    }
    if (planned.user) addUserPart(s.user, measured, planned.user, planned.trials, pricing);
    const costs = measured.map((t) => trialCost(t, pricing));
    addRole(
      s.target,
      costs.map((c) => c.target),
      planned.trials,
    );
    addRole(
      s.judge,
      costs.map((c) => c.judge),
      planned.trials,
    );
    for (const t of measured) {
      const calls = judgeCalls(t);
      judge.answered += calls.answered;
      judge.cached += calls.cached;
      judge.batch += calls.batch;
    }
  }
  const list = [...suites.values()];
  const total = emptyTotals();
  for (const s of list) {
    total.cases += s.cases;
    total.trials += s.trials;
    total.target.usd += s.target.usd;
    total.target.unpriced += s.target.unpriced;
    total.judge.usd += s.judge.usd;
    total.judge.unpriced += s.judge.unpriced;
    addUserEstimate(total.user, s.user);
    pushAll(total.noHistory, s.noHistory);
  }
  return { suites: list, total, judge, embeddings };
}

function emptyTotals(): Omit<SuiteEstimate, 'suite'> {
  return { cases: 0, trials: 0, target: { usd: 0, unpriced: 0 }, judge: { usd: 0, unpriced: 0 }, user: emptyUserEstimate(), noHistory: [] };
}

/** A case's part of a role: the mean known cost of its recorded trials, times the trials planned; any unknown one marks the case unpriced. */
function addRole(role: RoleEstimate, costs: Array<number | null>, trials: number): void {
  const known = costs.filter((c): c is number => c !== null);
  if (known.length < costs.length) role.unpriced++;
  if (known.length > 0) role.usd += (known.reduce((a, b) => a + b, 0) / known.length) * trials;
}

/** The dollars an estimate counts (what it could price). */
export function estimatedUsd(e: CostEstimate): number {
  return e.total.target.usd + e.total.judge.usd + e.total.user.usd;
}
