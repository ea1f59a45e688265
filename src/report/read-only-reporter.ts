import { deepFreeze } from '../core/read-only.js';
import type { Reporter } from './reporter.js';

/**
 * The reporter, given every event's payload deep-frozen: a reporter that writes to a result, a
 * trial, the case or the summary throws (its failure, reported like any other) and changes nothing
 * another reporter, the results file or the exit code reads. Frozen in place, once per object: the
 * runner never changes a trial or a case once reported, and the same object reaches every reporter.
 */
export function readOnlyReporter(r: Reporter): Reporter {
  const f = deepFreeze;
  return {
    ...(r.name !== undefined ? { name: r.name } : {}),
    ...(r.written ? { written: () => r.written!() } : {}),
    ...(r.onBegin ? { onBegin: (info) => r.onBegin!(f(info)) } : {}),
    ...(r.onTrialEnd ? { onTrialEnd: (c, trial) => r.onTrialEnd!(f(c), f(trial)) } : {}),
    ...(r.onCaseEnd ? { onCaseEnd: (result, c) => r.onCaseEnd!(f(result), f(c)) } : {}),
    ...(r.onWarning ? { onWarning: (message) => r.onWarning!(message) } : {}),
    ...(r.onEnd ? { onEnd: (info) => r.onEnd!(f(info)) } : {}),
  };
}
