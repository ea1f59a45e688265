import type { AssertionResult, CaseResult, CaseVerdict, PassRate, Summary, TrialResult } from '../core/results-schema.js';
import type { Usage } from '../core/usage.js';
import { EvalFailedError } from '../core/errors.js';
import { assertionText } from '../report/failure-lines.js';

/** What `evaluate(...).run()` resolves to: the CLI's verdict on this one case, and everything it measured. */
export interface EvalResult {
  /** The run passed as the CLI's exit code would say: the case's verdict (pass rate over trials) and any run gate. */
  readonly passed: boolean;
  /** `passed`, `failed`, `scored` (a soft assertion missed; not a failure unless `strict`) or `skipped`. */
  readonly verdict: CaseVerdict;
  /** Mean trial score, 0..1. */
  readonly score: number;
  /** Passed of the trials that ran, with its 95% interval; present from 2 such trials on. */
  readonly passRate: PassRate | undefined;
  /** `passAt` / `passHat`: the pass@k or pass^k estimate the verdict was decided on (absent below k trials run). */
  readonly reducer: CaseResult['reducer'];
  /** Tokens and dollars (null when a model has no known price) of the target, the judges, and both. */
  readonly usage: { target: Usage; judge: Usage; total: Usage };
  /** Every trial that ran: reply, trace, usage and each assertion's result. */
  readonly trials: TrialResult[];
  /** The case as the results document records it. */
  readonly case: CaseResult;
  readonly summary: Summary;
  /** The run's warnings (an unpriced model, a judge grading its own model, …). */
  readonly warnings: string[];
  /** Every failed assertion (with score and reason), trial error and failed run gate, one line each. */
  readonly failures: string[];
  /** Throws an EvalFailedError listing every failure when the run did not pass. */
  assertPasses(): void;
}

export function evalResult(c: CaseResult, summary: Summary, exitCode: number): EvalResult {
  const failures = failureReport(c, summary);
  const passed = exitCode === 0;
  return {
    passed,
    verdict: c.verdict,
    score: c.score.mean,
    passRate: c.passRate,
    reducer: c.reducer,
    usage: summary.usage,
    trials: c.trials,
    case: c,
    summary,
    warnings: summary.warnings,
    failures,
    assertPasses() {
      if (passed) return;
      const head = `${c.suite}/${c.id} ${VERDICT_WORDS[c.verdict]}: ${c.passed} of ${c.planned} trials passed (${c.required} needed)`;
      throw new EvalFailedError([head, ...failures.map((f) => `  ✗ ${f.replace(/\n/g, '\n    ')}`)].join('\n'), failures);
    },
  };
}

const VERDICT_WORDS: Record<CaseVerdict, string> = {
  failed: 'failed',
  scored: 'scored below a soft threshold (a failure here: evaluate() is strict unless told otherwise)',
  passed: 'passed, but the run failed',
  skipped: 'did not run',
};

/**
 * Each distinct failure once, with the trials it happened in: an assertion's text (a judge's
 * message carries its score against the threshold), its score when the text has none, and the
 * judge's reason; then trial errors and the run's failed gates.
 */
function failureReport(c: CaseResult, summary: Summary): string[] {
  const seen = new Map<string, number[]>();
  const add = (line: string, trial: number) => {
    const trials = seen.get(line);
    if (trials) trials.push(trial);
    else seen.set(line, [trial]);
  };
  for (const t of c.trials) {
    if (t.verdict === 'interrupted') continue;
    if (t.error) add(`error: ${t.error}`, t.index);
    for (const a of t.assertions) if (a.status === 'failed' || a.status === 'error') add(assertionLine(a), t.index);
  }
  const ran = c.trials.length;
  const lines = [...seen].map(([line, trials]) => (ran > 1 ? withTrials(line, trials, ran) : line));
  // An interrupted run is no verdict on the agent, but it is no pass either: say why trials are missing.
  // A trial the abort cut off mid-way counts here too: it is left out of the lines above, and a case of
  // only such trials would otherwise fail with no reason given.
  const cut = c.trials.filter((t) => t.verdict === 'interrupted').length;
  const missing = cut + (c.notRunReason === 'interrupted' ? c.notRun : 0);
  const interrupted = missing > 0 ? [`${missing} of ${c.planned} trials not run${cut > 0 ? ` (${cut} cut off mid-way)` : ''}: the run was interrupted (its signal aborted)`] : [];
  return [...lines, ...interrupted, ...summary.failures];
}

function assertionLine(a: AssertionResult): string {
  const text = assertionText(a);
  const scored = /\bscore \d/.test(text) ? text : `${text} (score ${a.score.toFixed(2)})`;
  return a.reason ? `${scored}\nreason: ${a.reason}` : scored;
}

/** `[trials 1, 3 of 3]` after the first line. */
function withTrials(line: string, trials: number[], ran: number): string {
  const [first, ...rest] = line.split('\n');
  const which = `[trial${trials.length > 1 ? 's' : ''} ${trials.map((i) => i + 1).join(', ')} of ${ran}]`;
  return [`${first} ${which}`, ...rest].join('\n');
}
