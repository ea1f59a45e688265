import { caseKey } from '../../core/matrix.js';
import { isDigest } from '../../core/digest.js';
import type { CaseResult, RejudgedFrom, Results, TrialResult } from '../../core/results-schema.js';
import type { RawCase } from '../../report/raw-trials.js';
import { caseFingerprint } from '../../suite/fingerprint.js';
import type { PlannedCase } from '../../suite/plan.js';
import type { ReplayedTrial } from './replay-target.js';
import type { StopReason } from '../loop/index.js';
import { largest } from '../../core/extremes.js';

type CannotRejudge = RejudgedFrom['cannotRejudge'][number];

/** One recorded case a re-judge replays: the current config's case, and its recorded trials by index. */
export interface ReplayedCase {
  recorded: CaseResult;
  trials: Map<number, ReplayedTrial>;
}

export interface RejudgePlan {
  /** The current config's cases for the recorded ones that can be re-judged, in the recording's order, with its planned trial count. */
  cases: PlannedCase[];
  /** By case key. */
  replays: Map<string, ReplayedCase>;
  cannotRejudge: CannotRejudge[];
}

/**
 * Matches a recording's cases to the current config's by key (matrix values included). A case is
 * re-judged only when it is the same case (same fingerprint) and every trial's trace is there in
 * clear (in the results under `trace: full`, in the run folder's raw trials under `safe`). Pure.
 */
export function planRejudge(recorded: Results, current: PlannedCase[], raw: ReadonlyMap<string, RawCase> | undefined, rawPath: string): RejudgePlan {
  const byKey = new Map(current.map((c) => [c.key, c]));
  const cases: PlannedCase[] = [];
  const replays = new Map<string, ReplayedCase>();
  const cannotRejudge: CannotRejudge[] = [];
  for (const r of recorded.cases) {
    const key = caseKey(r);
    const cannot = (reason: CannotRejudge['reason'], message: string) => void cannotRejudge.push({ key, reason, message });
    const c = byKey.get(key);
    if (!c) {
      cannot('not-in-config', 'not in the current config (or not selected)');
      continue;
    }
    if (r.fingerprint === undefined) {
      cannot('no-fingerprint', 'the recording has no case fingerprint, so it cannot tell this is the same case');
      continue;
    }
    const now = caseFingerprint(c);
    if (r.fingerprint !== now) {
      cannot('edited', `edited since the run: its case fingerprint differs (recorded ${r.fingerprint}, now ${now})`);
      continue;
    }
    const rawTrials = new Map((raw?.get(key)?.trials ?? []).map((t) => [t.index, t]));
    const trials = new Map<number, ReplayedTrial>();
    // An interrupted trial's run may be cut anywhere: it stays not run, as it counted for nothing.
    for (const t of r.trials.filter((t) => t.verdict !== 'interrupted')) {
      const rawTrial = rawTrials.get(t.index);
      trials.set(t.index, { recorded: t, trace: rawTrial?.trace ?? t.trace, turns: rawTrial?.turns ?? t.turns });
    }
    if ([...trials.values()].some((t) => !rawTrials.has(t.recorded.index) && holdsDigests(t.recorded))) {
      cannot('raw-trace-gone', `recorded under \`trace: safe\` and the run folder's raw traces are gone (${rawPath})`);
      continue;
    }
    cases.push({
      ...c,
      index: cases.length,
      repeat: largest(
        r.trials.map((t) => t.index + 1),
        r.planned,
      ),
    });
    replays.set(key, { recorded: r, trials });
  }
  return { cases, replays, cannotRejudge };
}

/** Why a trial of a replayed case is not run: the recording did not run it (or it was interrupted). */
export function recordedNotRun(replay: ReplayedCase, index: number): StopReason | undefined {
  if (replay.trials.has(index)) return undefined;
  return replay.recorded.trials.some((t) => t.index === index) ? 'interrupted' : (replay.recorded.notRunReason ?? 'interrupted');
}

/**
 * The re-judged trial: its new verdict, score, assertions and judge usage, with what the agent did
 * and spent (reply, trace, turns, time, target usage) as recorded. The trace and turns are the ones
 * the replay served (the run folder's raw ones for a `safe` recording): the run's trace policy makes
 * them digests again in every shareable output, and its raw trials keep them for the next re-judge.
 */
export function restoredTrial({ recorded, trace, turns }: ReplayedTrial, rejudged: TrialResult): TrialResult {
  const { turns: _fresh, ...rest } = rejudged;
  return {
    ...rest,
    reply: recorded.reply,
    durationMs: recorded.durationMs,
    usage: { target: recorded.usage.target, judge: rejudged.usage.judge, ...(recorded.usage.user ? { user: recorded.usage.user } : {}) },
    ...(recorded.simulatedUser ? { simulatedUser: recorded.simulatedUser } : {}),
    // What the case's toolResults served is part of what the agent did: the replay serves nothing itself.
    ...(recorded.toolResults ? { toolResults: recorded.toolResults } : {}),
    trace,
    ...(turns ? { turns } : {}),
  };
}

/** Whether the results hold a trial's tool data only as digests (`trace: safe`): a tool argument or result is one. */
function holdsDigests(t: Pick<TrialResult, 'trace' | 'turns'>): boolean {
  const calls = [...(t.trace.steps ?? []).flatMap((s) => s.toolCalls ?? []), ...(t.turns ?? []).flatMap((turn) => turn.toolCalls)];
  return calls.some((call) => isDigest(call.args) || isDigest(call.result));
}
