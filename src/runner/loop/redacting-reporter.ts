import { reportedJson } from '../../core/reported-json.js';
import type { SecretRedactor } from '../../providers/secret-redactor.js';
import type { ReporterEvents } from '../../report/reporter.js';

/**
 * The one edge every output passes: each event's payload has the run's secret values redacted
 * before any reporter (terminal, JSON and its streamed cases, JUnit, GitHub) sees it, and so
 * before any of them cuts a text short. What holds no secret is passed on as it is, not copied
 * (SecretRedactor.redactDeep: found so by searching its JSON text, not by walking it): the runner
 * does not change a trial or a case once reported.
 */
export function redactingReporter(inner: ReporterEvents, redactor: SecretRedactor): ReporterEvents {
  if (redactor.values.length === 0) return inner;
  const r = <T>(v: T) => redactor.redactDeep(v);
  // Trials found clean as they ended are the same objects in their case's result: not walked twice.
  const clean = new WeakSet<object>();
  return {
    onBegin: (info) => inner.onBegin(r(info)),
    onTrialEnd: (c, trial) => {
      const out = redactor.redactDeep(trial, clean);
      if (out === trial) clean.add(trial);
      return inner.onTrialEnd(c, out);
    },
    // Its JSON text, searched for secrets here, is the one the results file writes (reportedJson).
    onCaseEnd: (result, c) => inner.onCaseEnd(redactor.redactDeep(result, clean, reportedJson(result)), c),
    onWarning: (message) => inner.onWarning(redactor.redact(message)),
    onEnd: (info) => inner.onEnd(r(info)),
  };
}
