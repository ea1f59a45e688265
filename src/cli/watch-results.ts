import type { CaseResult, Summary } from '../core/results-schema.js';
import { safeJson } from '../core/safe-json.js';
import type { CaseView, EndInfo, Reporter } from '../report/reporter.js';
import { caseView } from '../runner/loop/case-view.js';
import { exitCodeFor, runGateFailures, withOutputs } from '../runner/loop/exit-code.js';
import { SummaryBuilder } from '../runner/loop/summary.js';
import type { PlannedCase } from '../suite/plan.js';

/** What decides a run's exit code besides its cases (the run's settings). */
export interface WatchGates {
  strict: boolean;
  minScore?: number | undefined;
  minPassRate?: number | undefined;
  failOnFlaky?: boolean | undefined;
}

/**
 * What `run --watch` keeps between its runs, so the files it writes (results, JUnit, HTML, job
 * summary) always describe the whole suite: each case's last result, as the file reporters saw it
 * (redacted, under the trace policy), kept as JSON text. A run that re-ran a few cases hands its
 * file reporters those cases' new results and the others' last ones, with the summary and exit code
 * counted over all of them and `run.watch` naming the cases re-run. The terminal shows the run's own.
 */
export class WatchResults {
  readonly #last = new Map<string, string>();
  /** The whole plan's exit code of the latest run (set when a file reporter ended it). */
  #exit: number | undefined;

  /** The watch's exit code after a run: the whole suite's, as its files show it, so a case that failed before and did not re-run still fails it. */
  exitCode(runCode: number): number {
    const code = this.#exit ?? runCode;
    this.#exit = undefined;
    return code;
  }

  /** The reporters of one run of the watch: `all` is the whole plan, `ran` the cases this run runs. */
  reporters(reporters: Reporter[], run: { all: PlannedCase[]; ran: PlannedCase[]; gates: WatchGates }): Reporter[] {
    const views = new Map<string, CaseView>(run.all.map((c, index) => [c.key, { ...caseView(c), index }]));
    const whole = (c: CaseView): CaseView => views.get(c.key) ?? c;
    const rerun = run.ran.map((c) => c.key);
    const ended = new Set<string>();
    // Counted once, on the first reporter's end: every reporter gets the same document.
    let merged: { summary: Summary; exitCode: number; carried: number } | undefined;
    const mergedEnd = (info: EndInfo) => {
      merged ??= this.#merge(info, run.all, ended, run.gates);
      this.#exit = merged.exitCode;
      return merged;
    };
    const carried = () => run.all.filter((c) => !ended.has(c.key) && this.#last.has(c.key));

    const wrap = (r: Reporter): Reporter => ({
      ...(r.name !== undefined ? { name: r.name } : {}),
      ...(r.written ? { written: () => r.written!() } : {}),
      onBegin: (info) => r.onBegin?.({ ...info, cases: run.all.length, trials: run.all.reduce((s, c) => s + c.repeat, 0) }),
      onTrialEnd: (c, trial) => r.onTrialEnd?.(whole(c), trial),
      onCaseEnd: (result, c) => {
        ended.add(c.key);
        const text = safeJson(result);
        if (text !== undefined) this.#last.set(c.key, text);
        return r.onCaseEnd?.(result, whole(c));
      },
      onWarning: (message) => r.onWarning?.(message),
      onEnd: async (info) => {
        const cases = carried();
        for (const c of cases) await r.onCaseEnd?.(JSON.parse(this.#last.get(c.key)!) as CaseResult, views.get(c.key)!);
        const m = mergedEnd(info);
        const watch = m.carried > 0 ? { watch: { rerun: rerun.filter((k) => ended.has(k)), carried: m.carried } } : {};
        return r.onEnd?.({ ...info, run: { ...info.run, ...watch }, summary: m.summary, exitCode: m.exitCode });
      },
    });
    return reporters.map((r) => (r.name === 'terminal' ? r : wrap(r)));
  }

  /** The summary and exit code of the whole plan: this run's cases and the others' last results. */
  #merge(info: EndInfo, all: PlannedCase[], ended: Set<string>, gates: WatchGates): { summary: Summary; exitCode: number; carried: number } {
    const builder = new SummaryBuilder(all);
    let carried = 0;
    for (const c of all) {
      const text = this.#last.get(c.key);
      if (text === undefined) continue;
      if (!ended.has(c.key)) carried += 1;
      builder.addCase(JSON.parse(text) as CaseResult);
    }
    const built = builder.result();
    // The run's own failures (a budget stop, a stray process.exit, a baseline comparison) stay; its
    // gates (min score, pass rate, flaky) are counted again over the whole plan.
    const ownGates = new Set(runGateFailures(info.summary, gates));
    const summary: Summary = {
      ...built,
      failures: [...info.summary.failures.filter((f) => !ownGates.has(f)), ...runGateFailures(built, gates)],
      warnings: info.summary.warnings,
      ...(info.summary.uncollectedBatches ? { uncollectedBatches: info.summary.uncollectedBatches } : {}),
    };
    const interrupted = info.run.interrupted;
    // An output that already failed made the run's code 2: the whole plan's keeps that.
    const outputFailed = info.exitCode !== exitCodeFor(info.summary, { strict: gates.strict, interrupted });
    return { summary, exitCode: withOutputs(exitCodeFor(summary, { strict: gates.strict, interrupted }), outputFailed), carried };
  }
}
