import type { TrialResult } from '../../core/results-schema.js';
import type { PriceTable } from '../../providers/pricing.js';
import { repriceCalls } from './estimate-trial.js';
import type { RoleEstimate } from './role-estimate.js';

/** A planned simulated user as the estimate needs it: the user model to price (`provider:model`; undefined for `fake` or one it cannot name) and `maxTurns`. */
export interface PlannedUser {
  model: string | undefined;
  maxTurns: number;
}

/**
 * The user-model role of an estimate: dollars like the other roles, and the calls and tokens
 * expected (the recorded mean per trial, times the trials planned), with `maxCalls` the bound:
 * the user model is asked at most `maxTurns` times a trial (each ask writes a message or ends it).
 */
export interface UserEstimate extends RoleEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  maxCalls: number;
}

export function emptyUserEstimate(): UserEstimate {
  return { usd: 0, unpriced: 0, calls: 0, inputTokens: 0, outputTokens: 0, maxCalls: 0 };
}

/** One recorded trial's user-model part, capped at today's `maxTurns` calls; `usd` null when it cannot be priced. */
interface UserTrial {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  usd: number | null;
}

/**
 * A recorded trial's user-model calls re-priced with today's table (the recorded cost where the model
 * has no known price). A recording with more calls than `maxTurns` allows now (it was lowered since)
 * is scaled down to `maxTurns` calls, its tokens and dollars in proportion. A recording without user
 * usage (the case had no simulated user then) cannot be priced.
 */
function userTrial(trial: TrialResult, user: PlannedUser, overrides: PriceTable): UserTrial {
  const u = trial.usage.user;
  if (!u) return { calls: 0, inputTokens: 0, outputTokens: 0, usd: null };
  const repriced = u.calls > 0 && user.model !== undefined ? repriceCalls(user.model, u, overrides, false) : null;
  const usd = u.calls === 0 ? 0 : (repriced ?? u.costUsd);
  const scale = u.calls > user.maxTurns ? user.maxTurns / u.calls : 1;
  return { calls: Math.min(u.calls, user.maxTurns), inputTokens: u.inputTokens * scale, outputTokens: u.outputTokens * scale, usd: usd === null ? null : usd * scale };
}

/** A case's user-model part: the mean of its recorded trials times the trials planned; the bound is `maxTurns` calls a trial. */
export function addUserPart(role: UserEstimate, measured: readonly TrialResult[], user: PlannedUser, trials: number, overrides: PriceTable): void {
  role.maxCalls += user.maxTurns * trials;
  const parts = measured.map((t) => userTrial(t, user, overrides));
  const mean = (f: (p: UserTrial) => number) => (parts.reduce((a, p) => a + f(p), 0) / parts.length) * trials;
  role.calls += mean((p) => p.calls);
  role.inputTokens += mean((p) => p.inputTokens);
  role.outputTokens += mean((p) => p.outputTokens);
  const known = parts.filter((p): p is UserTrial & { usd: number } => p.usd !== null);
  if (known.length < parts.length) role.unpriced++;
  if (known.length > 0) role.usd += (known.reduce((a, p) => a + p.usd, 0) / known.length) * trials;
}

/** Sums one suite's user part into the total. */
export function addUserEstimate(total: UserEstimate, part: UserEstimate): void {
  for (const k of ['usd', 'unpriced', 'calls', 'inputTokens', 'outputTokens', 'maxCalls'] as const) total[k] += part[k];
}
