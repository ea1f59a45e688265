import type { TracePolicy } from '../../core/judge-port.js';
import type { CaseResult, TrialResult } from '../../core/results-schema.js';
import { digestCase, digestTrial } from '../../core/trace-digest.js';
import type { Reporter } from '../../report/reporter.js';

/**
 * The trace policy's edge, after secret redaction: under `safe` each reporter (every shareable
 * artifact: results, JUnit, GitHub, HTML, terminal, a baseline) gets cases and trials with their
 * tool arguments, results and error text as digests; under `full` the reporters are returned as
 * they are. The trial pipeline (gates, judges) ran on the raw data before this. A case or trial is
 * digested once however many reporters receive it: the same event object reaches them all.
 */
export function underTracePolicy(reporters: Reporter[], policy: TracePolicy): Reporter[] {
  if (policy === 'full') return reporters;
  const trials = new WeakMap<TrialResult, TrialResult>();
  // A trial with no tool call has nothing to digest: passed on as it is, not copied.
  const trialOf = (t: TrialResult) => (hasToolCalls(t) ? memo(trials, t, digestTrial) : t);
  const cases = new WeakMap<CaseResult, CaseResult>();
  const caseOf = (c: CaseResult) => (c.trials.some(hasToolCalls) ? memo(cases, c, (r) => digestCase(r, trialOf)) : c);
  return reporters.map((r) => ({
    ...(r.name !== undefined ? { name: r.name } : {}),
    ...(r.written ? { written: () => r.written!() } : {}),
    ...(r.onBegin ? { onBegin: (info) => r.onBegin!(info) } : {}),
    ...(r.onTrialEnd ? { onTrialEnd: (c, trial) => r.onTrialEnd!(c, trialOf(trial)) } : {}),
    ...(r.onCaseEnd ? { onCaseEnd: (result, c) => r.onCaseEnd!(caseOf(result), c) } : {}),
    ...(r.onWarning ? { onWarning: (message) => r.onWarning!(message) } : {}),
    ...(r.onEnd ? { onEnd: (info) => r.onEnd!(info) } : {}),
  }));
}

function memo<T extends object>(seen: WeakMap<T, T>, value: T, make: (v: T) => T): T {
  let out = seen.get(value);
  if (!out) {
    out = make(value);
    seen.set(value, out);
  }
  return out;
}

/** Whether a trial holds tool data the `safe` policy digests (digestTrial changes nothing else). */
function hasToolCalls(t: TrialResult): boolean {
  return (t.trace.steps?.some((s) => s.toolCalls !== undefined && s.toolCalls.length > 0) ?? false) || (t.turns?.some((turn) => turn.toolCalls.length > 0) ?? false);
}
