import type { CaseResult, Counters, Summary } from '../../core/results-schema.js';
import { addUsage, emptyUsage, type Usage } from '../../core/usage.js';
import { RunningStats } from './verdict.js';
import { passRate } from './pass-rate.js';
import { MatrixTotals } from './matrix-totals.js';
import { AllowlistTotals } from './allowlist-totals.js';
import { panelAgreementCollector } from '../../stats/panel-agreement.js';

/**
 * The run summary, built one finished case at a time so a run never
 * holds every case in memory.
 */
export class SummaryBuilder {
  private readonly cases = { total: 0, passed: 0, failed: 0, scored: 0, skipped: 0 };
  private readonly trials = { planned: 0, run: 0, notRun: 0, passed: 0 };
  private interrupted = 0;
  private flaky = 0;
  private judgeErrors = 0;
  private readonly scores = new RunningStats();
  private target: Usage = emptyUsage();
  private judge: Usage = emptyUsage();
  private user: Usage | undefined;
  readonly counters: Counters = { judgeCallsSkippedByGates: 0, judgeCallsFromCache: 0, judgeTokensSavedByCache: 0, trialsNotRunEarlyStop: 0 };
  readonly failures: string[] = [];
  private readonly matrix: MatrixTotals;
  private readonly allowlist = new AllowlistTotals();
  private readonly panels = panelAgreementCollector();

  /** `planned`: the run's cases, so matrix tables list suites and values in plan order. */
  constructor(planned: ConstructorParameters<typeof MatrixTotals>[0] = []) {
    this.matrix = new MatrixTotals(planned);
  }

  addCase(c: CaseResult): void {
    this.cases.total += 1;
    this.matrix.addCase(c);
    this.allowlist.addCase(c);
    this.panels.add(c);
    this.cases[c.verdict] += 1;
    this.trials.planned += c.planned;
    this.trials.run += c.trials.length;
    this.trials.notRun += c.notRun;
    this.trials.passed += c.passed;
    if (c.flaky) this.flaky += 1;
    this.judgeErrors += c.judgeErrors ?? 0;
    if (c.notRunReason === 'early-stop') this.counters.trialsNotRunEarlyStop += c.notRun;
    for (const t of c.trials) {
      if (t.verdict === 'interrupted') this.interrupted += 1;
      else this.scores.add(t.score);
      for (const a of t.assertions) {
        if (a.judge?.cached) {
          this.counters.judgeCallsFromCache += 1;
          this.counters.judgeTokensSavedByCache += a.judge.savedTokens ?? 0;
        }
        if (a.skipped === 'gate-failed') this.counters.judgeCallsSkippedByGates += 1;
      }
    }
    this.target = addUsage(this.target, c.usage.target);
    this.judge = addUsage(this.judge, c.usage.judge);
    if (c.usage.user) this.user = addUsage(this.user ?? emptyUsage(), c.usage.user);
  }

  /** Run warnings are not the builder's: the run adds them (see execute-run). */
  result(): Omit<Summary, 'warnings'> {
    const rate = passRate(this.trials.passed, this.trials.run - this.interrupted);
    const matrix = this.matrix.tables();
    const panels = this.panels.agreements();
    return {
      cases: { ...this.cases, flaky: this.flaky },
      trials: { ...this.trials, ...(this.interrupted > 0 ? { interrupted: this.interrupted } : {}), ...(this.judgeErrors > 0 ? { judgeErrors: this.judgeErrors } : {}) },
      ...(rate ? { passRate: rate } : {}),
      score: this.scores.result(),
      usage: { target: this.target, judge: this.judge, ...(this.user ? { user: this.user } : {}), total: addUsage(this.target, this.judge, ...(this.user ? [this.user] : [])) },
      counters: { ...this.counters },
      ...(matrix.length ? { matrix } : {}),
      failures: [...this.failures],
      ...this.allowlist.result(),
      ...(panels.length ? { panels } : {}),
    };
  }
}
