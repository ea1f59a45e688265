import type { SecretRedactor } from '../providers/secret-redactor.js';
import type { ReporterEvents } from '../report/reporter.js';

/**
 * The one edge every output passes: each event's payload has the run's secret values redacted
 * before any reporter (terminal, JSON and its streamed cases, JUnit, GitHub) sees it, and so
 * before any of them cuts a text short.
 */
export function redactingReporter(inner: ReporterEvents, redactor: SecretRedactor): ReporterEvents {
  if (redactor.values.length === 0) return inner;
  const r = <T>(v: T) => redactor.redactDeep(v);
  return {
    onBegin: (info) => inner.onBegin(r(info)),
    onTrialEnd: (c, trial) => inner.onTrialEnd(c, r(trial)),
    onCaseEnd: (result, c) => inner.onCaseEnd(r(result), c),
    onWarning: (message) => inner.onWarning(redactor.redact(message)),
    onEnd: (info) => inner.onEnd(r(info)),
  };
}
