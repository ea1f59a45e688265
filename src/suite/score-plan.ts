import { UserError } from '../core/errors.js';
import type { MessageTurn } from '../core/chat-turn.js';
import type { RecordedTrace } from '../core/recorded-trace.js';
import { withAllowlist } from './allowlist-plan.js';
import type { Scoring } from './load-score-file.js';
import type { PlanDefaults, PlannedCase } from './plan.js';

/** The target name a scored case reports: no target runs, the recorded agent answered. */
export const RECORDED_TARGET = 'recorded';

export interface ScorePlan {
  /** One case per (scoring, trace) whose `where` matches, scorings in order, traces in the order read. */
  cases: PlannedCase[];
  /** Each case's trace and scoring, by case key. */
  scored: Map<string, { trace: RecordedTrace; scoring: Scoring }>;
  /** Traces no scoring matched: counted and shown, not an error. */
  unmatched: RecordedTrace[];
  /** Scorings whose `where` matched no trace (a typo in a key scores nothing): shown, not an error, as long as another matched. */
  idle: Scoring[];
}

/** Whether a trace's metadata holds each `where` key with its value (or one of its values). */
export function whereMatches(where: Scoring['where'], metadata: Readonly<Record<string, unknown>>): boolean {
  if (!where) return true;
  return Object.entries(where).every(([key, want]) => {
    if (!Object.hasOwn(metadata, key)) return false;
    const have = metadata[key];
    return (Array.isArray(want) ? want : [want]).some((w) => w === have || (typeof have !== 'object' && String(have) === String(w)));
  });
}

/**
 * The cases of `agent-evals score`: each trace scored by each scoring whose `where` matches its
 * metadata, as a one-trial case (suite: the scoring's name, id: the trace's id) whose input or
 * messages are what the agent was asked and whose assertions are the scoring's. Pure.
 */
export function planScored(scorings: readonly Scoring[], traces: readonly RecordedTrace[], d: Pick<PlanDefaults, 'timeoutMs' | 'judgeDefaults'>): ScorePlan {
  const named = new Map<string, Scoring>();
  for (const s of scorings) {
    const first = named.get(s.name);
    if (first) throw new UserError(`two scoring files are named "${s.name}" (the other is ${first.file}): each names its scored cases, so give each its own name`, { file: s.file, field: 'name' });
    named.set(s.name, s);
  }
  const cases: PlannedCase[] = [];
  const scored = new Map<string, { trace: RecordedTrace; scoring: Scoring }>();
  const matched = new Set<RecordedTrace>();
  const idle: Scoring[] = [];
  for (const scoring of scorings) {
    const before = cases.length;
    const ids = new Map<string, number>();
    for (const trace of traces) {
      if (!whereMatches(scoring.where, trace.metadata)) continue;
      matched.add(trace);
      // The same trace read twice (a file named twice, two exports of one run) stays two cases.
      const seen = (ids.get(trace.id) ?? 0) + 1;
      ids.set(trace.id, seen);
      const id = seen === 1 ? trace.id : `${trace.id}~${seen}`;
      const c = scoredCase(scoring, trace, id, cases.length, d);
      cases.push(c);
      scored.set(c.key, { trace, scoring });
    }
    if (cases.length === before) idle.push(scoring);
  }
  return { cases, scored, unmatched: traces.filter((t) => !matched.has(t)), idle };
}

function scoredCase(scoring: Scoring, trace: RecordedTrace, id: string, index: number, d: Pick<PlanDefaults, 'timeoutMs' | 'judgeDefaults'>): PlannedCase {
  const messages: MessageTurn[] = trace.messages ? trace.messages.map((m) => ({ role: m.role, content: m.content })) : [{ role: 'user', content: trace.input ?? '' }];
  const input = trace.input ?? messages.findLast((m) => m.role === 'user')?.content ?? '';
  return {
    index,
    key: `${scoring.name}/${id}`,
    suite: scoring.name,
    id,
    file: scoring.file,
    line: scoring.line,
    tags: [],
    target: RECORDED_TARGET,
    targetName: RECORDED_TARGET,
    repeat: 1,
    passRate: 1,
    timeoutMs: d.timeoutMs,
    judge: scoring.judge,
    judgeDefaults: d.judgeDefaults,
    input,
    messages,
    turns: undefined,
    reference: undefined,
    assertions: withAllowlist(scoring.onlyTools, scoring.assertions),
    check: scoring.check,
    scoredTrace: { id: trace.id, ...(trace.startedAt !== undefined ? { startedAt: trace.startedAt } : {}), source: trace.source },
  };
}
